import 'reflect-metadata';
import { SUBGRAPH_NAMES } from '../../subgraphs/subgraph-names.js';
import { exitWithHelpIfAsked } from './cli-help.js';

/**
 * `npm run subgraph -- <name>`: serves one subgraph alone at /graphql (PORT, default 4001; its subscriptions over SSE
 * and WebSocket), configured by the same env vars as `npm start`, and prints `serving on http://…` once it listens,
 * then each embedded chain's JSON-RPC URL. SIGTERM / SIGINT complete its open streams and stop it and its chains.
 */
const usage = `usage: npm run subgraph -- <${SUBGRAPH_NAMES.join('|')}>

Serves one subgraph alone at /graphql on PORT (default 4001), for a federation router; the same env vars as npm start
configure it (with none, its own embedded chains and replayed upstreams). Compose the supergraph for the router with
npm run supergraph. Guide: docs/operators.md#federation-under-a-router\n`;
exitWithHelpIfAsked(process.argv.slice(2), usage);
// Loaded after --help is answered: the subgraphs take seconds to load.
const { SUBGRAPH_MODULES } = await import('../../subgraphs/index.js');
const { ConfigError, loadConfig, secretValues } = await import('../config/config.js');
const { createLogger } = await import('../logging/logger.js');
const { startSubgraphServer } = await import('./subgraph-server.js');
const name = process.argv[2];
const mod = SUBGRAPH_MODULES.find((m) => m.name === name);
if (!mod) {
  process.stderr.write(usage);
  process.exit(2);
}
let config: import('../config/config.js').AppConfig;
try {
  config = loadConfig({ PORT: '4001', ...process.env });
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
}
const logger = createLogger(config.logLevel, secretValues(process.env));
const subgraph = await startSubgraphServer({ module: mod, config, logger }).catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
process.stdout.write(`serving on ${subgraph.url}\n`);
// As npm start's banner does: where to send the transactions its events come from (docs/live-data.md#under-a-router).
for (const chain of subgraph.chains) {
  process.stdout.write(`embedded ${chain.name} chain (id ${chain.chainId}): ${chain.rpcUrl}\n`);
}
const stop = (signal: string) => {
  logger.info({ signal, subgraph: name }, 'shutting down');
  setTimeout(() => process.exit(1), 10_000).unref();
  subgraph.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
