import type { PartState } from '../config/part-modes.js';
import { publicDevKeys } from '../config/public-dev-keys.js';

/** The dev account the banner offers and `npm run demo` sends from: alice.eth's owner, funded on both chains. */
export const DEMO_ACCOUNT_INDEX = 1;

export interface StartBannerParams {
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  /** The embedded chains that run (none when every chain is live). */
  chains: readonly EmbeddedChainRow[];
  /** Each part demo or live (config.parts). */
  parts: readonly PartState[];
}

/** One embedded chain as a process reports it: its name, chain id and loopback JSON-RPC URL. */
export interface EmbeddedChainRow {
  name: string;
  chainId: number;
  rpcUrl: string;
}

type RunningChain = { chainId: number; rpcUrl: string } | undefined;

/**
 * The embedded chains a process runs (none when every chain is live): the embedded Ethereum, then the facilitator's
 * Base. `npm start`'s banner and `npm run subgraph` print them.
 * @example embeddedChainRows({ localChain: server.localChain, localFacilitator: server.localFacilitator })
 */
export function embeddedChainRows(p: {
  localChain: RunningChain;
  localFacilitator: { chain: NonNullable<RunningChain> } | undefined;
}): EmbeddedChainRow[] {
  const rows: [string, RunningChain][] = [
    ['ethereum', p.localChain],
    ['base', p.localFacilitator?.chain],
  ];
  return rows.flatMap(([name, chain]) => (chain ? [{ name, chainId: chain.chainId, rpcUrl: chain.rpcUrl }] : []));
}

/**
 * What `npm start` prints once it listens: `serving on <url>` first (scripts and tests read that line), then where
 * the docs, GraphiQL, MCP and health are, which part is demo and which live, each embedded chain's JSON-RPC URL and one funded dev account to send
 * transactions with.
 * @example process.stdout.write(startBanner({ url: server.url, chains: [{ name: 'ethereum', chainId: 1, rpcUrl }] }))
 */
export function startBanner({ url, chains, parts }: StartBannerParams): string {
  const row = (label: string, value: string, note = '') =>
    `  ${label.padEnd(12)}${value.padEnd(42)}  ${note}`.trimEnd();
  const lines = [
    `serving on ${url}`,
    row('home', `${url}/`, 'links to everything below'),
    row('docs', `${url}/docs`, 'API reference (the guides: docs/ in the repository)'),
    row('graphql', `${url}/graphql`, 'GraphiQL in a browser, with example tabs'),
    row('mcp', `${url}/mcp`, 'MCP server (Streamable HTTP) for agents'),
    row('health', `${url}/api/sources/health`, 'which source is live, which local'),
  ];
  parts.forEach((p, i) => {
    lines.push(row(i === 0 ? 'parts' : '', `${p.part.padEnd(12)} ${p.mode}`, p.detail));
  });
  for (const chain of chains) {
    lines.push(row(chain.name, chain.rpcUrl, `embedded anvil, chain id ${chain.chainId}`));
  }
  if (chains.length > 0) {
    // The public key table, not getDevAccounts(): printing needs no signing account derived at start.
    const account = publicDevKeys()[DEMO_ACCOUNT_INDEX]!;
    const key = account.privateKey;
    lines.push(
      row('dev account', account.address, 'alice.eth, funded on the embedded chains'),
      row('', key, "its key: anvil's public test key, never for a real chain"),
      row('demo', 'npm run demo -- --help', 'send the transactions each webhook event comes from'),
    );
  }
  return `${lines.join('\n')}\n`;
}
