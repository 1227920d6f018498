import 'reflect-metadata';
import { ApolloServer, HeaderMap } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { buildFederatedSubgraph, type SubgraphModule } from '../../subgraphs/shared/build-subgraph.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { installErrorHandling } from '../http/error-handler.js';
import { GraphqlDocuments } from '../http/graphql-documents.js';
import { graphqlSseHandler, graphqlWebSocket, wantsEventStream } from '../http/graphql-streams.js';
import { type EmbeddedChainRow, embeddedChainRows } from './start-banner.js';
import { startServices } from './start-services.js';
import { subgraphLiveOperations } from './subgraph-live-operations.js';

export interface RunningSubgraph {
  /** http://host:port; the subgraph answers at `${url}/graphql`. */
  url: string;
  /** The embedded chains this process runs (none when every chain is live), to send them transactions. */
  chains: EmbeddedChainRow[];
  close(): Promise<void>;
}

/**
 * One subgraph alone at POST/GET /graphql, for a router composing from schema/supergraph.graphql. Its resolvers get
 * what they get inside the server (startServices: the same store, embedded chains and sources, and the live event
 * bus), and the caller is identified from the headers a router forwards. Its subscription fields stream on the
 * transports a router speaks to subgraphs: GraphQL over SSE (a request accepting `text/event-stream`, Hive Gateway's
 * default) and GraphQL over WebSocket (an upgrade of /graphql). The embedded chain's CCIP parents resolve through this
 * process's own GET /ccip/{sender}/{data}.json, as they do through the server's.
 * @example const sub = await startSubgraphServer({ module: ensSubgraph, config, logger })
 */
export async function startSubgraphServer(p: {
  module: SubgraphModule;
  config: AppConfig;
  logger: Logger;
}): Promise<RunningSubgraph> {
  const { config, logger } = p;
  const services = await startServices({ config, logger, table: ROUTE_TABLE });
  try {
    const built = await buildFederatedSubgraph(p.module);
    const apollo = new ApolloServer<GraphContext>({
      schema: built.schema,
      csrfPrevention: false,
      stopOnTerminationSignals: false,
      // As on the server's /graphql: errors carry code and status, never where in our code they were thrown.
      includeStacktraceInErrorResponses: false,
      // No Apollo Studio traces (ftv1) in answers: nothing here reports usage to Apollo.
      plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled()],
    });
    await apollo.start();
    const http = Fastify({ loggerInstance: logger as FastifyBaseLogger, bodyLimit: 1024 * 1024 });
    installErrorHandling(http);
    const streams = subgraphLiveOperations({
      schema: built.schema,
      documents: new GraphqlDocuments({ schema: built.schema, maxTokens: config.graphql.maxTokens, rules: [] }),
      live: services.live,
    });
    const sse = graphqlSseHandler({
      operations: streams,
      contexts: services.contexts,
      // The caller as the request names it; nothing admits it here (subgraph-live-operations.ts).
      access: (request) => ({ ip: request.ip, headers: request.headers }),
    });
    let wsRequests = 0;
    const ws = graphqlWebSocket(http, {
      operations: streams,
      contexts: services.contexts,
      // As this Fastify's request.ip: a subgraph believes no X-Forwarded-For (it trusts no proxy).
      trust: false,
      requestIds: () => `ws-${++wsRequests}`,
    });
    const graphql = async (request: FastifyRequest, reply: FastifyReply) => {
      if (wantsEventStream(request)) return sse(request, reply);
      const headers = new HeaderMap();
      for (const [k, v] of Object.entries(request.headers)) {
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      const at = request.url.indexOf('?');
      const result = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: request.method,
          headers,
          search: at < 0 ? '' : request.url.slice(at + 1),
          body: request.body,
        },
        context: async () => services.contexts.create(request),
      });
      reply.code(result.status ?? 200);
      for (const [k, v] of result.headers) reply.header(k, v);
      if (result.body.kind === 'complete') return reply.send(result.body.string);
      const chunks: string[] = [];
      for await (const chunk of result.body.asyncIterator) chunks.push(chunk);
      return reply.send(chunks.join(''));
    };
    http.route({ method: ['GET', 'POST'], url: '/graphql', handler: graphql });
    // ERC-3668 gateway for the OffchainResolver that startServices deploys on the embedded chain.
    http.get<{ Params: { sender: string; file: string } }>('/ccip/:sender/:file', async (request) => {
      const { sender, file } = request.params;
      if (!file.endsWith('.json')) throw new ApiError('NOT_FOUND', 'CCIP requests end in .json');
      return services.app.ccip.answer({ sender, data: file.slice(0, -'.json'.length) });
    });
    await http.listen({ port: config.port, host: config.host });
    const port = (http.server.address() as { port: number }).port;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${host}:${port}`;
    await services.listening(url);
    logger.info({ subgraph: built.name, port }, 'subgraph listening');
    let closing: Promise<void> | undefined;
    return {
      url,
      chains: embeddedChainRows(services),
      close: () => {
        closing ??= (async () => {
          // Open streams complete first (SSE: a `complete` event; WebSocket: `complete`, then 1001), then HTTP closes.
          streams.completeAll();
          await ws.close();
          await http.close();
          await apollo.stop();
          await services.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await services.close();
    throw err;
  }
}
