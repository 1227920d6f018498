import { applyServerV8Flags } from './server-v8-flags.js';

// `npm start`. The server's V8 flags are set before anything else is loaded.
applyServerV8Flags();

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
// The rest of the server (start-server.ts and what it imports), from the code cache the build wrote when bundled.
const { loadServerBody } = await import('./server-body.js');
const { serve } = await loadServerBody();
await serve(config);
