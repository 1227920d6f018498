import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CompiledOperationRow } from '../../../rest-compat/compile-routes.js';
import type { OpenApiDocument, OperationObject } from '../../../rest-compat/openapi/openapi-types.js';
import { type OperationSchemas, operationSchemas } from '../../../rest-compat/openapi/operation-schemas.js';
import { type OperationRow, rowCredentials } from '../../../rest-compat/route-row.js';
import type { AccessRoute } from '../../access/access-gate.js';
import { type BazaarExtension, mcpDiscovery } from '../../access/bazaar-discovery.js';
import { routePriceUsd } from '../../access/payment-catalog.js';
import { orPaymentRequired } from './payment-output-schema.js';

/** One MCP tool: a documented operation row, as an agent sees and calls it. */
export interface AgentTool {
  name: string;
  compiled: CompiledOperationRow;
  /** What `tools/list` answers for it. */
  definition: Tool;
  schemas: OperationSchemas;
  /**
   * Who may see and call a Write-tier tool: a SIWE session (subname registration) or a wallet, a session or one of
   * its API keys (webhooks), as the row's credentials say; undefined for every other tool, which anyone may call.
   */
  needs: 'session' | 'wallet' | undefined;
  /** USD per call past the free quota (the row's price or the default); undefined: never sold. */
  priceUsd: string | undefined;
  /** x402 `resource.url` of a payment for this tool (x402's MCP transport names tools so). */
  resourceUrl: string;
  /** What the access gate sees: the row, with the tool's bazaar discovery for its 402 offers. */
  accessRoute: AccessRoute;
}

/**
 * The JSON-only part of the agent surface, as scripts/bundle-server.mjs computes it for the default configuration
 * (src/server/built-artifacts.ts): each tool row's schemas by row id, each sold tool's bazaar discovery by tool name,
 * each priced route's by row id.
 */
export interface BuiltAgentSchemas {
  schemas: Record<string, OperationSchemas>;
  toolDiscovery: Record<string, BazaarExtension>;
  httpDiscovery: Record<string, BazaarExtension>;
}

/** Tags whose rows only read this service's own state (usage, health): no outside world involved. */
const CLOSED_WORLD_TAGS: ReadonlySet<string> = new Set(['Status', 'Free', 'x402']);

/** A tool name as MCP clients show it: snake_case, from a letter. */
const TOOL_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

function description(row: OperationRow, priceUsd: string | undefined): string {
  const cost =
    priceUsd === undefined
      ? 'Always free.'
      : `Counted against the caller's daily quota; past it, ${priceUsd} USD per call with x402 (USDC on Base).`;
  return [row.summary, row.description, cost].filter(Boolean).join('\n\n');
}

/** A Write-tier row's tool is offered to the callers its row takes: a session, or a session or API key (a wallet). */
function writeToolNeeds(row: OperationRow): AgentTool['needs'] {
  if (row.tier !== 'write') return undefined;
  return rowCredentials(row) === 'wallet' ? 'wallet' : 'session';
}

/** Whether a row is an agent tool: GET/POST operations outside Auth; Write rows only for a session or wallet. */
function isToolRow(row: OperationRow): boolean {
  return (row.method === 'GET' || row.method === 'POST') && row.tier !== 'auth';
}

/**
 * The tool name a row declares; a tool row without one, a row that is no tool but declares one, or a name that is
 * not snake_case stops the server at start.
 */
function declaredToolName(row: OperationRow): string | undefined {
  if (!isToolRow(row)) {
    if (row.tool !== undefined) throw new Error(`route ${row.id}: only GET and POST rows outside Auth are tools`);
    return undefined;
  }
  if (row.tool === undefined) throw new Error(`route ${row.id}: a GET or POST row outside Auth declares its tool name`);
  if (!TOOL_NAME.test(row.tool)) throw new Error(`route ${row.id}: tool name ${row.tool} is not snake_case`);
  return row.tool;
}

/**
 * The agent tools of the route table: one per GET/POST operation row outside the Auth tier (Write rows marked as
 * needing a session), named as the row declares (`tool`), with schemas read from the row's operation in the
 * OpenAPI document, so that a tool and its REST path cannot disagree.
 * @example const tools = agentTools({ operations, document, defaultPriceUsd: '0.01' })
 */
export function agentTools(p: {
  operations: readonly CompiledOperationRow[];
  document: OpenApiDocument;
  defaultPriceUsd: string;
  /** What the build computed of these very inputs (agent-surface.ts), used instead of computing it again. */
  built?: BuiltAgentSchemas;
}): AgentTool[] {
  const tools: AgentTool[] = [];
  const names = new Set<string>();
  for (const compiled of p.operations) {
    const { row } = compiled;
    const name = declaredToolName(row);
    if (name === undefined) continue;
    const operation = p.document.paths[row.path]?.[row.method.toLowerCase() as 'get' | 'post'] as
      | OperationObject
      | undefined;
    if (!operation) throw new Error(`route ${row.id}: not in the OpenAPI document`);
    if (names.has(name)) throw new Error(`two routes make the tool name ${name}`);
    names.add(name);
    const schemas = p.built?.schemas[row.id] ?? operationSchemas(p.document, operation);
    const priceUsd = routePriceUsd(row, p.defaultPriceUsd);
    const readOnly = row.tier !== 'write';
    const text = description(row, priceUsd);
    const discovery =
      priceUsd === undefined
        ? undefined
        : (p.built?.toolDiscovery[name] ?? mcpDiscovery({ toolName: name, description: text, schemas }));
    tools.push({
      name,
      compiled,
      schemas,
      needs: writeToolNeeds(row),
      priceUsd,
      resourceUrl: `mcp://tool/${name}`,
      accessRoute: {
        ...row,
        tag: row.tag,
        discovery,
      },
      definition: {
        name,
        title: row.summary,
        description: text,
        inputSchema: schemas.inputSchema,
        ...(schemas.outputSchema
          ? { outputSchema: priceUsd === undefined ? schemas.outputSchema : orPaymentRequired(schemas.outputSchema) }
          : {}),
        annotations: {
          title: row.summary,
          readOnlyHint: readOnly,
          ...(readOnly ? {} : { destructiveHint: false, idempotentHint: false }),
          openWorldHint: !CLOSED_WORLD_TAGS.has(row.tag),
        },
      },
    });
  }
  return tools;
}
