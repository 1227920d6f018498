import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import type { AccessMode } from '../../access/caller-limits.js';
import type { AgentTool } from './agent-tools.js';
import type { CachedAnswer, CachedAnswers } from './cached-answers.js';
import { type AgentToolDeps, callAgentTool } from './call-agent-tool.js';
import { JsonRpcError } from './json-rpc-error.js';
import type { BatchLimits } from './mcp-batch.js';
import { ToolCallRequestSchema } from './tool-call-params.js';
import { mayCall } from './tool-callers.js';

/** A document an agent may read: the contracts the tools come from. */
export interface AgentResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  text: string;
}

/** What one /mcp request brings: who calls, and as what. */
export interface McpRequestScope {
  caller: { ip: string; headers: Record<string, string | string[] | undefined> };
  /**
   * How the request's credentials identify it (`siwe`, `api_key`, `anonymous`), undefined when they are refused:
   * Write-tier tools are listed to the callers their rows take.
   */
  callerMode: () => Promise<AccessMode | undefined>;
  /** Present when the request is a JSON-RPC batch: its free members are counted and their answers bounded. */
  batch?: BatchLimits;
}

/** The unchanging answers (tool lists, documents), serialized once: what a handler returns in their place. */
export interface McpAnswers {
  cache: CachedAnswers;
  /** tools/list as a caller identified as `mode` sees it. */
  tools(mode: AccessMode | undefined): CachedAnswer;
  /** resources/read, by URI. */
  resources: ReadonlyMap<string, CachedAnswer>;
}

/**
 * The tool lists and each resource's contents, each serialized once on first use (CachedAnswers): a request then
 * costs a placeholder, and mcp-route.ts splices the stored bytes into the transport's answer.
 * @example const answers = mcpAnswers({ tools, resources, cache: new CachedAnswers() })
 */
export function mcpAnswers(p: {
  tools: readonly AgentTool[];
  resources: readonly AgentResource[];
  cache: CachedAnswers;
}): McpAnswers {
  const lists = new Map<AccessMode | undefined, CachedAnswer>();
  return {
    cache: p.cache,
    tools(mode) {
      let list = lists.get(mode);
      if (!list) {
        list = p.cache.store(() => p.tools.filter((t) => mayCall(t.needs, mode)).map((t) => t.definition));
        lists.set(mode, list);
      }
      return list;
    },
    resources: new Map(
      // `text` is read on first use: a document is rendered only when an agent reads it.
      p.resources.map((r) => [r.uri, p.cache.store(() => [{ uri: r.uri, mimeType: r.mimeType, text: r.text }])]),
    ),
  };
}

export const MCP_SERVER_INFO = {
  name: 'chain-identity-api',
  title: 'Chain identity and market data',
  version: '3.0.0',
};

const INSTRUCTIONS =
  'Each tool is one documented REST operation of this API (same validation, limits and prices). Anonymous calls are ' +
  'counted per IP address; send X-API-Key or Authorization: Bearer with the HTTP requests to be counted as a key or a ' +
  'session. Past the free quota a tool answers an x402 PaymentRequired (isError, structuredContent); pay it by calling ' +
  'again with _meta["x402/payment"] (or _meta["x402.payment"], the X-PAYMENT header value, as x402-mcp sends it).';

/**
 * The MCP server for one /mcp request (stateless Streamable HTTP: any instance answers any request). Tools and
 * resources are built once at start; the handlers only close over this request's caller.
 * @example const server = mcpServer({ tools, resources, deps, scope }); await server.connect(transport)
 */
export function mcpServer(p: {
  tools: readonly AgentTool[];
  byName: ReadonlyMap<string, AgentTool>;
  resources: readonly AgentResource[];
  answers: McpAnswers;
  /** Shared by every request's server: the SDK builds a new Ajv instance per server otherwise. */
  validator: jsonSchemaValidator;
  deps: AgentToolDeps;
  scope: McpRequestScope;
}): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: p.validator,
  });
  const { batch } = p.scope;
  /** A free answer inside a batch: counted against the caller, and its bytes taken from the batch's bound. */
  const free = async (answer?: CachedAnswer): Promise<void> => {
    if (!batch) return;
    await batch.count();
    if (answer) batch.reserve(answer.bytes());
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const mode = p.tools.some((t) => t.needs !== undefined) ? await p.scope.callerMode() : undefined;
    const answer = p.answers.tools(mode);
    await free(answer);
    // The placeholder stands for the stored tool list (mcp-route.ts splices it into the answer).
    return { tools: answer.placeholder as unknown as [] };
  });
  server.setRequestHandler(ToolCallRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = p.byName.get(request.params.name);
    // An unknown tool is a protocol error (MCP "Error Handling"); everything about a known tool is a tool result.
    if (!tool)
      throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}: tools/list names them`);
    return callAgentTool(
      {
        tool,
        arguments: request.params.arguments,
        meta: request.params._meta as Record<string, unknown> | undefined,
        caller: p.scope.caller,
      },
      p.deps,
    );
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    await free();
    return {
      // Listed without reading `text`: a document's bytes are rendered only when it is read.
      resources: p.resources.map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        title,
        description,
        mimeType,
      })),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const answer = p.answers.resources.get(request.params.uri);
    if (!answer) throw new JsonRpcError(ErrorCode.InvalidParams, `no resource ${request.params.uri}`);
    await free(answer);
    // The placeholder stands for the stored contents (mcp-route.ts splices it into the answer).
    return { contents: answer.placeholder as unknown as [] };
  });
  return server;
}
