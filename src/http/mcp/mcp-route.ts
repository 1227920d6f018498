import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessGate } from '../../access/access-gate.js';
import { ApiError } from '../../errors/api-error.js';
import type { InProcessGateway } from '../../gateway/in-process-gateway.js';
import { BoundedMemo } from '../../memo/bounded-memo.js';
import type { GraphContextFactory } from '../graph-context-factory.js';
import { keepMalformedJson, MalformedJsonBody } from '../json-body.js';
import type { ResponseCache } from '../response-cache.js';
import type { AgentTool } from './agent-tools.js';
import { CachedAnswers } from './cached-answers.js';
import { type AgentToolCall, type AgentToolDeps, callAgentTool, callAgentToolNow } from './call-agent-tool.js';
import { directToolCall, toolCallAnswer } from './direct-tool-call.js';
import { batchLimits, isOversizedBatch, oversizedBatchAnswer } from './mcp-batch.js';
import { type AgentResource, mcpAnswers, mcpServer } from './mcp-server.js';

export const MCP_PATH = '/mcp';

/** Loopback names every local client uses; always answered. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The credentials a tool call is identified by: the /mcp request's own. */
const IDENTITY_HEADERS = ['x-api-key', 'authorization'] as const;

/** Host names /mcp answers: loopback, PUBLIC_BASE_URL's, and the configured ones. */
export function mcpAllowedHosts(p: { publicBaseUrl: string | undefined; configured: readonly string[] }): Set<string> {
  const hosts = new Set([...LOOPBACK_HOSTS, ...p.configured]);
  if (p.publicBaseUrl) hosts.add(new URL(p.publicBaseUrl).hostname.toLowerCase());
  return hosts;
}

function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function originHostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Host and Origin values judged most recently: a client sends the same ones on every call. */
const VALUES_JUDGED = 64;

/** Whether a header value names an allowed host, judged once per value seen recently (no URL parsed per call). */
function allowedBy(allowed: ReadonlySet<string>, hostnameOfValue: (value: string) => string | undefined) {
  const judged = new BoundedMemo<string, boolean>(VALUES_JUDGED);
  return (value: string): boolean =>
    judged.get(value, () => {
      const host = hostnameOfValue(value);
      return host !== undefined && allowed.has(host);
    });
}

/**
 * DNS-rebinding protection (MCP "Security Warning"): a page on another site that gets its name to resolve to this
 * server still sends its own Host and Origin, which are not ours; such a request is refused before anything runs.
 * @example const refuseForeignHost = foreignHostRefusal(allowedHosts); refuseForeignHost(request)
 */
function foreignHostRefusal(allowed: ReadonlySet<string>): (request: FastifyRequest) => void {
  const allowedHost = allowedBy(allowed, hostnameOf);
  const allowedOrigin = allowedBy(allowed, originHostnameOf);
  return (request) => {
    if (!allowedHost(request.headers.host ?? '')) {
      throw new ApiError('FORBIDDEN', 'this Host is not one /mcp answers (DNS-rebinding protection)');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigin(origin)) {
      throw new ApiError('FORBIDDEN', 'this Origin may not call /mcp (DNS-rebinding protection)');
    }
  };
}

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

export interface McpRouteDeps {
  tools: readonly AgentTool[];
  resources: readonly AgentResource[];
  access: AccessGate;
  gateway: InProcessGateway;
  contexts: GraphContextFactory;
  /** The REST rows' micro-cache: a tool of a cacheable row reuses its body as the row's REST path does. */
  cache: ResponseCache;
  allowedHosts: ReadonlySet<string>;
}

/**
 * POST /mcp: MCP Streamable HTTP, stateless (no session: every instance behind a load balancer answers every
 * request; what must be shared, quotas and spent payment nonces, is in the store). Answers are JSON, not SSE: no tool
 * streams. GET and DELETE (a server-sent stream, ending a session) do not apply without sessions: 405.
 * @example registerMcpRoute(app, { tools, resources, access, gateway, contexts, allowedHosts })
 */
export function registerMcpRoute(app: FastifyInstance, deps: McpRouteDeps): void {
  // Its own scope: a body that is not JSON is answered in JSON-RPC (-32700), as MCP clients read it, not the envelope.
  app.register(async (scope) => {
    keepMalformedJson(scope);
    registerMcpMethods(scope, deps);
  });
}

/** The client address and credentials a call is identified by: the /mcp request's own. */
type McpCaller = AgentToolCall['caller'];

/**
 * A direct tools/call's answer (200, the status no one has changed): the bytes the SDK's transport sends for its
 * result. Returns the reply, which an async handler resolves to (fastify then waits for the response to be done, and
 * sends nothing more).
 */
function sendToolCallAnswer(reply: FastifyReply, id: string | number, result: CallToolResult): FastifyReply {
  return reply
    .header('content-type', 'application/json')
    .header('Cache-Control', 'no-store')
    .send(toolCallAnswer(id, result));
}

/** JSON-RPC's parse error, as the SDK's transport answers a body it cannot parse. */
function parseError(reason: string) {
  return { jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${reason}` }, id: null };
}

function registerMcpMethods(app: FastifyInstance, deps: McpRouteDeps): void {
  const byName = new Map(deps.tools.map((t) => [t.name, t]));
  const answers = mcpAnswers({ tools: deps.tools, resources: deps.resources, cache: new CachedAnswers() });
  // The SDK's server builds an Ajv instance of its own unless given one: one for all requests.
  const validator = new AjvJsonSchemaValidator();
  const refuseForeignHost = foreignHostRefusal(deps.allowedHosts);
  /** The SDK's server and transport, for every message the direct path leaves to them. */
  const throughSdk = async (
    request: FastifyRequest,
    reply: FastifyReply,
    caller: McpCaller,
    toolDeps: AgentToolDeps,
  ) => {
    const isBatch = Array.isArray(request.body) && request.body.length > 1;
    const server = mcpServer({
      tools: deps.tools,
      byName,
      resources: deps.resources,
      answers,
      validator,
      deps: toolDeps,
      scope: {
        caller,
        callerMode: async () => (await deps.access.identify(caller).catch(() => undefined))?.mode,
        ...(isBatch ? { batch: batchLimits({ access: deps.access, caller }) } : {}),
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
      const response = await transport.handleRequest(
        new Request(url, { method: 'POST', headers: webHeaders(request) }),
        { parsedBody: request.body },
      );
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      reply.header('Cache-Control', 'no-store');
      const body = await response.text();
      return reply.send(body === '' ? undefined : answers.cache.splice(body));
    } finally {
      await server.close();
    }
  };
  app.route({
    method: 'POST',
    url: MCP_PATH,
    // Not async: an answer sent at once returns undefined (nothing is left for fastify to wait for), and the rest
    // return the promise that sends theirs and resolves to the reply.
    handler: (request: FastifyRequest, reply: FastifyReply): Promise<unknown> | undefined => {
      refuseForeignHost(request);
      if (request.body instanceof MalformedJsonBody) {
        reply.code(400).header('Cache-Control', 'no-store').send(parseError(request.body.reason));
        return;
      }
      if (isOversizedBatch(request.body)) {
        reply.code(400).header('Cache-Control', 'no-store').send(oversizedBatchAnswer());
        return;
      }
      const headers: Record<string, string | string[] | undefined> = {};
      for (const name of IDENTITY_HEADERS)
        if (request.headers[name] !== undefined) headers[name] = request.headers[name];
      const caller = { ip: request.ip, headers };
      const toolDeps: AgentToolDeps = {
        access: deps.access,
        gateway: deps.gateway,
        context: () => deps.contexts.create(request),
        cache: deps.cache,
        log: request.log,
      };
      // An agent's everyday message, a single tools/call, is answered here with the bytes the SDK would send
      // (direct-tool-call.ts); building the SDK's server and transport for it cost ten times the call itself.
      const direct = directToolCall(request.headers, request.body, byName);
      if (!direct) return throughSdk(request, reply, caller, toolDeps);
      // Members named, not spread: V8 copies a spread object on its slow path (half a microsecond per call here).
      const call: AgentToolCall = { tool: direct.tool, arguments: direct.arguments, meta: direct.meta, caller };
      // A fresh cached body admitted at once (anonymous, on SQLite): answered now, with no promise or async step.
      const now = callAgentToolNow(call, toolDeps);
      if (now !== undefined) {
        sendToolCallAnswer(reply, direct.id, now);
        return;
      }
      return callAgentTool(call, toolDeps).then((result) => sendToolCallAnswer(reply, direct.id, result));
    },
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      refuseForeignHost(request);
      return reply
        .code(405)
        .header('Allow', 'POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC to /mcp' },
          id: null,
        });
    },
  });
}
