import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, GraphQLError, type GraphQLFormattedError, parse } from 'graphql';
import { useServer as serveGraphqlWs } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AccessRequest } from '../access/identify-caller.js';
import type { GraphContextFactory } from './graph-context-factory.js';
import { formatErrors, newResponseHead } from './graphql-coded-errors.js';
import { sseReplyHandler } from './graphql-sse-reply.js';
import type { LiveOperationAnswer, LiveOperations } from './live-operations.js';
import { forwardedClient, type ProxyTrust } from './trusted-proxies.js';

/** Whether a /graphql request asks for GraphQL over SSE (graphql-sse's distinct connections mode). */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/** An errors-only answer's HTTP status: the refusal's, a field error's own `status`, else 400. */
function errorsStatus(errors: readonly GraphQLFormattedError[], status: number | undefined): number {
  const own = errors.map((e) => e.extensions?.status).find((s): s is number => typeof s === 'number');
  return status ?? own ?? 400;
}

/** graphql-sse's response tuple for errors answered before any event: JSON, with the status they call for. */
function sseErrors(errors: readonly GraphQLFormattedError[], status: number, headers: Map<string, string>) {
  return [
    `${JSON.stringify({ errors })}\n`,
    {
      status,
      statusText: '',
      headers: { ...Object.fromEntries(headers), 'content-type': 'application/json; charset=utf-8' },
    },
  ] as const;
}

/** What an answer makes of the stream: a refusal's or an errors-only result's JSON, or the results to send. */
function streamed(answer: LiveOperationAnswer) {
  if ('refused' in answer) {
    const { errors, status, headers } = answer.refused;
    return sseErrors(errors, status, headers);
  }
  const { result } = answer;
  if (!(Symbol.asyncIterator in result) && result.data == null && result.errors?.length) {
    const head = newResponseHead();
    const errors = formatErrors(result.errors, head);
    return sseErrors(errors, errorsStatus(errors, head.status), head.headers);
  }
  return result;
}

/** The position an SSE client resumes after: its `Last-Event-ID` (an EventSource sends it back as it reconnects). */
function lastEventId(request: FastifyRequest): string | undefined {
  const value = request.headers['last-event-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * GraphQL over SSE on /graphql (graphql-sse's protocol, distinct connections mode): every operation through
 * liveOperations (documents, limits, access, cost). The route calls it for a request that accepts
 * `text/event-stream`; the reply is written on the raw response, each event's message with its `id:`
 * (graphql-sse-reply.ts), and a request with `Last-Event-ID` resumes after it (docs/live-data.md#reconnecting).
 * @example if (wantsEventStream(request)) return sse(request, reply)
 */
export function graphqlSseHandler(deps: {
  operations: LiveOperations;
  contexts: GraphContextFactory;
  access: (request: FastifyRequest) => AccessRequest;
}): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const handler = sseReplyHandler({
    async onSubscribe(req, params) {
      const request = req.raw;
      const live = { transport: 'sse', resumeAfter: lastEventId(request) } as const;
      return streamed(
        await deps.operations.run({
          query: params.query,
          variables: params.variables,
          operationName: params.operationName,
          access: deps.access(request),
          // A stream's events are read as they come, not as of the request's arrival: each learns the head anew.
          context: () => ({ ...deps.contexts.create(request), live, askedAt: undefined }),
        }),
      );
    },
  });
  return async (request, reply) => {
    // graphql-sse writes the response itself.
    reply.hijack();
    try {
      await handler(request, reply);
    } catch (err) {
      request.log.error({ err }, 'GraphQL over SSE failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(`${JSON.stringify({ errors: [{ message: 'internal server error' }] })}\n`);
    }
  };
}

/** The credentials a WebSocket client sends in its connection parameters, as the headers REST callers send. */
const PARAM_HEADERS = ['x-api-key', 'authorization'] as const;

function connectionHeaders(request: IncomingMessage, params: Readonly<Record<string, unknown>> | undefined) {
  const headers: AccessRequest['headers'] = { ...request.headers };
  for (const name of PARAM_HEADERS) {
    const value = Object.entries(params ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

interface WsContextValue {
  answer: ExecutionResult | AsyncIterable<ExecutionResult>;
}

/**
 * GraphQL over WebSocket on /graphql (graphql-ws, `graphql-transport-ws`): an upgrade of /graphql is handed to a
 * `ws` server; each subscribe message runs through liveOperations, with the upgrade's headers and the connection
 * parameters' `x-api-key` or `authorization` (browsers cannot set WebSocket headers). The caller's address is the
 * upgrade's, by the same TRUST_PROXY rule as request.ip (X-Forwarded-For believed from trusted proxies only). A
 * refusal is the protocol's `error` message. `close()` ends every socket with 1001 once the streams have completed.
 * @example const ws = graphqlWebSocket(app, { operations, contexts, trust, requestIds }); app.addHook('preClose', () => ws.close())
 */
export function graphqlWebSocket(
  app: FastifyInstance,
  deps: {
    operations: LiveOperations;
    contexts: GraphContextFactory;
    /** TRUST_PROXY as Fastify takes it (trusted-proxies.ts proxyTrust). */
    trust: boolean | ProxyTrust;
    requestIds: () => string;
  },
): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true });
  const server = serveGraphqlWs<Record<string, unknown>>(
    {
      async onSubscribe(ctx, _id, payload) {
        const request = ctx.extra.request;
        const headers = connectionHeaders(request, ctx.connectionParams);
        const ip = forwardedClient(request, deps.trust);
        const answer = await deps.operations.run({
          query: payload.query,
          variables: payload.variables,
          operationName: payload.operationName,
          access: { ip, headers },
          context: () => ({
            ...deps.contexts.create({
              id: deps.requestIds(),
              ip,
              headers,
              protocol: 'http',
              host: request.headers.host ?? '',
              url: request.url ?? '/graphql',
            }),
            live: { transport: 'websocket' },
          }),
        });
        if ('refused' in answer) {
          return answer.refused.errors.map((e) => new GraphQLError(e.message, { extensions: e.extensions }));
        }
        const contextValue: WsContextValue = { answer: answer.result };
        return { schema: undefined as never, document: parse(payload.query), contextValue };
      },
      execute: (args) => (args.contextValue as WsContextValue).answer as ExecutionResult,
      subscribe: (args) => (args.contextValue as WsContextValue).answer,
    },
    wss,
  );
  app.server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/graphql') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  return {
    async close() {
      await server.dispose();
      for (const client of wss.clients) client.close(1001, 'the server is shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
