import 'reflect-metadata';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import Fastify from 'fastify';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import { buildSubgraph } from '../../subgraphs/shared/build-subgraph.js';
import { type GraphContext, newGraphContext } from '../../subgraphs/shared/graph-context.js';
import { createAccess } from '../access/create-access.js';
import { createCcipServices } from '../ccip/ccip-services.js';
import { loadConfig, secretValues } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { openStore } from '../store/open-store.js';
import { startWebhooks } from '../webhooks/start-webhooks.js';
import { createAppServices } from './app-services.js';
import { createSources } from './create-sources.js';
import { startEmbeddedChainIfNeeded } from './start-embedded-chain.js';

/**
 * `npm run subgraph -- <name>`: serves one subgraph alone at POST /graphql (PORT, default 4001), so that
 * Apollo Router can compose the subgraphs from schema/supergraph.graphql.
 */
const name = process.argv[2];
const mod = SUBGRAPH_MODULES.find((m) => m.name === name);
if (!mod) {
  process.stderr.write(`usage: npm run subgraph -- <${SUBGRAPH_MODULES.map((m) => m.name).join('|')}>\n`);
  process.exit(2);
}
const config = loadConfig({ PORT: '4001', ...process.env });
const logger = createLogger(config.logLevel, secretValues(process.env));
const store = await openStore({
  dataDir: config.dataDir,
  redisUrl: config.redisUrl,
  timeoutMs: config.storeTimeoutMs,
});
// SIWE's domain and URI when neither is configured: this subgraph's own address, known once it listens.
let listenUrl = '';
const chain = await startEmbeddedChainIfNeeded(config, logger);
const { sources, close } = await createSources({ config, localRpcUrl: chain?.rpcUrl });
const app = createAppServices({
  config,
  table: ROUTE_TABLE,
  store,
  startedAt: Date.now(),
  account: createAccess({ config, store, sources, listenUrl: () => listenUrl }).account,
  ccip: await createCcipServices({ config, store }),
  // Served alone, this instance also delivers (the outbox is shared through the store).
  webhooks: startWebhooks({ config, store, logger }).services,
});
const built = await buildSubgraph(mod);
const apollo = new ApolloServer<GraphContext>({
  schema: built.schema,
  csrfPrevention: false,
  stopOnTerminationSignals: false,
  plugins: [ApolloServerPluginLandingPageDisabled()],
});
await apollo.start();
const http = Fastify({ loggerInstance: logger as never });
http.post('/graphql', async (request, reply) => {
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers.set(k, v);
  const result = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: 'POST', headers, search: '', body: request.body },
    context: async () =>
      newGraphContext({
        requestId: String(request.id),
        sources,
        app,
        publicBaseUrl: config.publicBaseUrl ?? `${request.protocol}://${request.host}`,
      }),
  });
  reply.code(result.status ?? 200);
  for (const [k, v] of result.headers) reply.header(k, v);
  return reply.send(result.body.kind === 'complete' ? result.body.string : '');
});
await http.listen({ port: config.port, host: config.host });
const port = (http.server.address() as { port: number }).port;
listenUrl = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
process.stdout.write(`subgraph ${built.name} serving on port ${port}\n`);
const stop = async () => {
  await http.close();
  await apollo.stop();
  await close();
  await chain?.stop();
  await store.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
