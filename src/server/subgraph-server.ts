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
import { startServices } from './start-services.js';

export interface RunningSubgraph {
  /** http://host:port; the subgraph answers at `${url}/graphql`. */
  url: string;
  close(): Promise<void>;
}

/**
 * One subgraph alone at POST/GET /graphql, for a router composing from schema/supergraph.graphql. Its resolvers get
 * what they get inside the server (startServices: the same store, embedded chains and sources), and the caller is
 * identified from the headers a router forwards. The embedded chain's CCIP parents resolve through this process's
 * own GET /ccip/{sender}/{data}.json, as they do through the server's.
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
    const graphql = async (request: FastifyRequest, reply: FastifyReply) => {
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
      close: () => {
        closing ??= (async () => {
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
