import { pathToFileURL } from 'node:url';
import { DEMO_ACTION_LIST, DEMO_COMMANDS } from '../embedded/demo-action-list.js';
import { exitWithHelpIfAsked } from './cli-help.js';

/**
 * `npm run demo -- --help`: the actions, and where they send.
 * @example process.stdout.write(demoUsage())
 */
export function demoUsage(): string {
  const width = Math.max(...DEMO_ACTION_LIST.map((a) => a.usage.length), ...DEMO_COMMANDS.map((c) => c.name.length));
  const extra = DEMO_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.description}`);
  return `usage: npm run demo -- <action> [arguments]

Sends, from anvil's dev accounts, the transactions each webhook event family comes from, on the embedded Ethereum
chain of the server at API_URL (default http://127.0.0.1:$PORT, PORT 3000), whose JSON-RPC URL it reads from
GET /api/sources/health; or, with DEMO_RPC_URL, on the embedded chain at that URL (the one a \`npm run subgraph\`
process printed). Names resolve on that chain; the chain starts afresh with every npm start.

${[...DEMO_ACTION_LIST.map((a) => `  ${a.usage.padEnd(width)}  ${a.description}`), ...extra].join('\n')}

Webhooks and the payload of each event: docs/webhooks.md
`;
}

export interface DemoIo {
  env: Record<string, string | undefined>;
  write(text: string): void;
  fetch?: typeof fetch;
}

/** The embedded Ethereum chain's JSON-RPC URL as the server at `apiUrl` reports it, or a sentence saying why not. */
async function embeddedRpcUrl(apiUrl: string, fetchFn: typeof fetch): Promise<string> {
  let health: { sources?: { name: string; mode: string; rpcUrl?: string | null }[] };
  try {
    health = (await (await fetchFn(`${apiUrl}/api/sources/health`)).json()) as typeof health;
  } catch (err) {
    throw new Error(`no server answers at ${apiUrl} (${(err as Error).message}): start it with npm start`);
  }
  const ethereum = health.sources?.find((s) => s.name === 'rpc:ethereum');
  if (!ethereum?.rpcUrl) {
    throw new Error(
      `the server at ${apiUrl} runs no embedded Ethereum chain (ETH_RPC_URL is set): the demo only sends to the embedded one`,
    );
  }
  return ethereum.rpcUrl;
}

/**
 * Runs one demo action against the server at API_URL and reports it; the exit code is 0 when the transaction was
 * mined, 1 when it could not be sent, 2 for an unknown action.
 * @example process.exitCode = await runDemo(['text', 'alice.eth', 'url', 'https://alice.example'], { env: process.env, write })
 */
export async function runDemo(args: readonly string[], io: DemoIo): Promise<number> {
  const [name, ...rest] = args;
  const action = DEMO_ACTION_LIST.find((a) => a.name === name);
  if (!action && !DEMO_COMMANDS.some((c) => c.name === name)) {
    io.write(`${name === undefined ? '' : `unknown action: ${name}\n\n`}${demoUsage()}`);
    return 2;
  }
  const apiUrl = (io.env.API_URL ?? `http://127.0.0.1:${io.env.PORT || 3000}`).replace(/\/+$/, '');
  try {
    if (name === 'api-key') {
      const { demoApiKey } = await import('../embedded/demo-api-key.js');
      io.write(`${(await demoApiKey(apiUrl, io.fetch ?? fetch)).join('\n')}\n`);
      return 0;
    }
    const chain = { rpcUrl: io.env.DEMO_RPC_URL || (await embeddedRpcUrl(apiUrl, io.fetch ?? fetch)) };
    // viem and the seed's addresses load only for an action, not for --help.
    const { DEMO_ACTIONS, demoAccounts } = await import('../embedded/demo-actions.js');
    if (!action) {
      io.write(`${(await demoAccounts(chain)).join('\n')}\n`);
      return 0;
    }
    const result = await DEMO_ACTIONS.find((a) => a.name === action.name)!.run(chain, rest);
    io.write(
      `${result.summary}\n` +
        `transaction ${result.transactionHash} in block ${result.blockNumber} on ${chain.rpcUrl}\n` +
        `event ${result.event}: a webhook subscribed to it with a matching filter gets a delivery (docs/webhooks.md)\n`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    // viem's errors run to many lines of context; the first says what failed.
    io.write(`${err.message.split('\n')[0]}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitWithHelpIfAsked(process.argv.slice(2), demoUsage());
  process.exitCode = await runDemo(process.argv.slice(2), {
    env: process.env,
    write: (text) => process.stdout.write(text),
  });
}
