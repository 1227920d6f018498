import type { CompiledOperationRow } from '../../../rest-compat/compile-routes.js';
import type { OpenApiDocument } from '../../../rest-compat/openapi/openapi-types.js';
import { operationSchemas } from '../../../rest-compat/openapi/operation-schemas.js';
import type { RouteRow, RouteTable } from '../../../rest-compat/route-row.js';
import type { ServedDocument } from '../../../rest-compat/routes/documents.js';
import { type BazaarExtension, httpDiscovery as describeHttpRoute } from '../../access/bazaar-discovery.js';
import { type PricedTool, routePriceUsd } from '../../access/payment-catalog.js';
import { type AgentTool, agentTools, type BuiltAgentSchemas } from './agent-tools.js';
import type { AgentResource } from './mcp-server.js';

/** Where the server serves its OpenAPI document (a document row of the table). */
const OPENAPI_PATH = '/api/openapi.yaml';

/** What agents get: the tools and the documents they come from. */
export interface AgentSurface {
  /** The OpenAPI document as served: tools, their schemas and discovery metadata come from it. */
  document: OpenApiDocument;
  tools: AgentTool[];
  resources: AgentResource[];
  /** x402 bazaar discovery of each priced HTTP route, offered with its 402s and listed by /.well-known/x402. */
  httpDiscovery: Map<RouteRow, BazaarExtension>;
}

/**
 * The agent tools and resources, from the OpenAPI document GET /api/openapi.yaml serves (the object its bytes were
 * rendered from, not parsed back: YAML parsing took seconds at start) and the supergraph SDL the gateway runs.
 * @example const surface = agentSurface({ operations, documents, supergraphSdl, defaultPriceUsd: '0.01' })
 */
export function agentSurface(p: {
  table: RouteTable;
  operations: readonly CompiledOperationRow[];
  documents: readonly ServedDocument[];
  /** The OpenAPI document object those bytes were rendered from (rest-compat/routes/documents.ts). */
  document: OpenApiDocument;
  supergraphSdl: string;
  defaultPriceUsd: string;
  /** The build's computation of the JSON-only parts from these very inputs (builtAgentSchemas), when it applies. */
  built?: BuiltAgentSchemas;
}): AgentSurface {
  const openapi = p.documents.find((d) => d.row.path === OPENAPI_PATH);
  if (!openapi) throw new Error(`the route table serves no ${OPENAPI_PATH}: agent tools are built from it`);
  const { document } = p;
  const tools = agentTools({ operations: p.operations, document, defaultPriceUsd: p.defaultPriceUsd, built: p.built });
  const resources: AgentResource[] = [
    {
      uri: 'api://openapi.yaml',
      name: 'openapi',
      title: 'OpenAPI 3.1 document',
      description: `Every REST operation of this API (GET ${OPENAPI_PATH}); each tool is one of its operations`,
      mimeType: 'application/yaml',
      // Read when an agent asks for it: the YAML is rendered on first use, not at start.
      get text() {
        return openapi.body;
      },
    },
    {
      uri: 'api://supergraph.graphql',
      name: 'supergraph',
      title: 'GraphQL supergraph SDL',
      description: 'The federated GraphQL schema /graphql serves; every tool runs one operation on it',
      mimeType: 'application/graphql',
      text: p.supergraphSdl,
    },
  ];
  const httpDiscovery = new Map<RouteRow, BazaarExtension>();
  for (const row of p.table.rows) {
    if (routePriceUsd(row, p.defaultPriceUsd) === undefined) continue;
    const operation = document.paths[row.path]?.[row.method.toLowerCase() as Lowercase<typeof row.method>];
    if (!operation) throw new Error(`route ${row.id}: not in the OpenAPI document`);
    httpDiscovery.set(
      row,
      p.built?.httpDiscovery[row.id] ??
        describeHttpRoute({ method: row.method, schemas: operationSchemas(document, operation) }),
    );
  }
  return { document, tools, resources, httpDiscovery };
}

/**
 * The JSON-only parts of `surface` (schemas and bazaar discovery), for the build to store (src/server/built-artifacts.ts).
 * @example JSON.stringify(agentSchemasOf(agentSurface({ … })))
 */
export function agentSchemasOf(surface: AgentSurface): BuiltAgentSchemas {
  const built: BuiltAgentSchemas = { schemas: {}, toolDiscovery: {}, httpDiscovery: {} };
  for (const tool of surface.tools) {
    built.schemas[tool.compiled.row.id] = tool.schemas;
    if (tool.accessRoute.discovery) built.toolDiscovery[tool.name] = tool.accessRoute.discovery;
  }
  for (const [row, discovery] of surface.httpDiscovery) built.httpDiscovery[row.id] = discovery;
  return built;
}

/** The tools sold per call, as /.well-known/x402 lists them. */
export function pricedTools(tools: readonly AgentTool[]): PricedTool[] {
  return tools.flatMap((tool) =>
    tool.priceUsd !== undefined && tool.accessRoute.discovery
      ? [
          {
            name: tool.name,
            summary: tool.compiled.row.summary,
            priceUsd: tool.priceUsd,
            resourceUrl: tool.resourceUrl,
            tag: tool.compiled.row.tag,
            discovery: tool.accessRoute.discovery,
          },
        ]
      : [],
  );
}
