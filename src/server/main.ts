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

// The rest (start-server.ts and all it imports) is loaded next, from the code cache the build wrote when bundled; it
// validates the configuration and refuses a busy port before the store opens or any chain starts.
const { loadServerBody } = await import('./server-body.js');
const { startFromEnv } = await loadServerBody();
await startFromEnv(process.env);
