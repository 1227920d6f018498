import { setFlagsFromString } from 'node:v8';

// `npm start`. V8's allocation-site pretenuring learns at start-up, while the schema is composed and the contracts are
// loaded, that objects from many shared allocation sites live long; it then allocates the per-request objects of
// those sites straight into the old generation, so under load the old space grows by megabytes per scavenge and
// mark-compacts follow. Turned off before anything else is loaded: measured on GET /api/price/ETH, 10.5k → 16k
// req/s, scavenges 8 ms → 1 ms, a flat heap (npm run bench; docs/architecture.md#benchmark).
setFlagsFromString('--no-allocation-site-pretenuring');

const { exitWithHelpIfAsked } = await import('./cli-help.js');
exitWithHelpIfAsked(
  process.argv.slice(2),
  `usage: npm start [-- --help]

Serves the whole API (REST, /graphql, /mcp, the CCIP-Read gateway, webhooks) on PORT (default 3000) and prints
where everything is. With no configuration it needs no network: SQLite under ./data, two embedded anvil chains
(Ethereum, chain id 1, with ENS; Base, 8453, with test USDC) and recorded replies of every upstream API.

It is configured only by environment variables, each switching one part to the real thing, e.g.
  PORT=8080 REDIS_URL=redis://127.0.0.1:6379/0 ETH_RPC_URL=https://… npm start
Every variable: docs/configuration.md (and .env.example). Check live upstreams first: npm run sources:check.
SIGTERM or SIGINT stops it gracefully.`,
);

// The configuration is validated, and a live part leaning on a demo value refused, before anything else loads: one
// line per variable, exit 2. A busy port is refused next, before the server's modules load (~3 s) and any chain starts.
const { ConfigError, loadConfig } = await import('../config/config.js');
const { assertLiveReady } = await import('../config/live-guard.js');
let config: import('../config/config.js').AppConfig;
try {
  config = loadConfig(process.env);
  assertLiveReady(config);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
}
const { assertPortFree, PortInUseError } = await import('./port-check.js');
try {
  await assertPortFree(config.port, config.host);
} catch (err) {
  if (!(err instanceof PortInUseError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
// The decorators' metadata polyfill, evaluated before any module that declares GraphQL types: in the bundle the
// subgraphs' types share a chunk with code that imports 'reflect-metadata' only further down, and their decorators
// ran first (ReflectMetadataMissingError at start).
await import('reflect-metadata');
const { serve } = await import('./start-server.js');
await serve(config);
