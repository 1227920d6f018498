import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AccessMode } from '../../access/caller-limits.js';
import type { AgentTool } from './agent-tools.js';
import { type AgentToolDeps, callAgentTool } from './call-agent-tool.js';
import { JsonRpcError } from './json-rpc-error.js';
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
  'again with _meta["x402/payment"].';

/**
 * The MCP server for one /mcp request (stateless Streamable HTTP: any instance answers any request). Tools and
 * resources are built once at start; the handlers only close over this request's caller.
 * @example const server = mcpServer({ tools, resources, deps, scope }); await server.connect(transport)
 */
export function mcpServer(p: {
  tools: readonly AgentTool[];
  byName: ReadonlyMap<string, AgentTool>;
  resources: readonly AgentResource[];
  deps: AgentToolDeps;
  scope: McpRequestScope;
}): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const mode = p.tools.some((t) => t.needs !== undefined) ? await p.scope.callerMode() : undefined;
    return { tools: p.tools.filter((t) => mayCall(t.needs, mode)).map((t) => t.definition) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
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
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    // Listed without reading `text`: a document's bytes are rendered only when it is read.
    resources: p.resources.map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = p.resources.find((r) => r.uri === request.params.uri);
    if (!resource) throw new JsonRpcError(ErrorCode.InvalidParams, `no resource ${request.params.uri}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text }] };
  });
  return server;
}
