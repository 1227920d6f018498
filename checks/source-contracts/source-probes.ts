import { CHAINS } from '../../src/config/chains.js';
import type { AppConfig } from '../../src/config/config.js';
import { DebankClient, debankHeaders } from '../../src/sources/defi/debank-client.js';
import { defillamaProBaseUrl } from '../../src/sources/defi/defi-sources.js';
import { DefiLlamaClient } from '../../src/sources/defi/defillama-client.js';
import { DefiLlamaProClient } from '../../src/sources/defi/defillama-pro-client.js';
import { DefiLlamaYieldsClient } from '../../src/sources/defi/defillama-yields-client.js';
import { GrowthepieClient } from '../../src/sources/defi/growthepie-client.js';
import { EnsSubgraphClient } from '../../src/sources/ens/ens-subgraph-client.js';
import { EtherscanClient } from '../../src/sources/explorer/etherscan-client.js';
import { SourcifyClient } from '../../src/sources/explorer/sourcify-client.js';
import { FarcasterHubClient } from '../../src/sources/farcaster/farcaster-hub-client.js';
import { NeynarClient } from '../../src/sources/farcaster/neynar-client.js';
import { AlchemyNftClient, alchemyNftBaseUrl } from '../../src/sources/nft/alchemy-nft-client.js';
import { CoinbaseSpotClient } from '../../src/sources/prices/coinbase-spot-client.js';
import { CoinGeckoClient } from '../../src/sources/prices/coingecko-client.js';
import { DefiLlamaCoinsClient } from '../../src/sources/prices/defillama-coins-client.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';

/** One cheap request to one configured upstream, sent by the same client (URL, key placement) as production. */
export interface SourceProbe {
  /** The source's name in /api/sources/health. */
  source: string;
  /** The contract its reply is checked against (see VENDOR_CONTRACTS). */
  vendor: string;
  /** The base URL as configured; the contract's paths start after it (and the vendor's fixed prefix). */
  baseUrl: string;
  /** The key the request must carry where the contract says; undefined when none is configured. */
  credential: string | undefined;
  /** Where the vendor takes a key: as its contract says (checked), inside the configured URL, or not at all. */
  key: 'checked' | 'in-url' | 'none';
  /** For JSON-RPC: the chain id the node must answer. */
  expectedChainId?: number;
  /** Sends the request through `fetch`; may throw (the check reads what was exchanged, not the result). */
  send(fetch: typeof globalThis.fetch): Promise<unknown>;
}

/** A wallet every upstream knows something (or nothing) about: anvil's second development account. */
const PROBE_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';

/** What every client of a probe is built with: live, its own health registry, the configured timeout, no retry. */
interface ProbeClientOptions {
  mode: 'live';
  registry: SourceHealthRegistry;
  timeoutMs: number;
  policy: { retries: number };
  fetch: typeof globalThis.fetch;
}

/** One row of the probe table: the upstream as configured, and the one request that probes it. */
interface ProbeRow extends Partial<Pick<SourceProbe, 'credential' | 'expectedChainId'>> {
  source: string;
  /** The contract; the source's own name when omitted. */
  vendor?: string;
  /** The configured base URL; undefined when the source is not live (it runs on the local replay: no probe). */
  baseUrl: string | undefined;
  /** Where the vendor takes a key; `none` when omitted. */
  key?: SourceProbe['key'];
  /** Sends the request with a client built on `options`, to `baseUrl` (defined: the row is live). */
  send(options: ProbeClientOptions, baseUrl: string): Promise<unknown>;
}

/**
 * A probe for every upstream the configuration makes live (an unset one runs on the local replay: nothing to check).
 * Each sends ONE request, chosen among the cheapest the client makes.
 * @example sourceProbes(loadConfig(process.env)).map((p) => p.source) // ['coingecko', 'neynar', …]
 */
export function sourceProbes(config: AppConfig): SourceProbe[] {
  const up = config.upstreams;
  const { neynar, hub } = up.farcaster;
  const { coingecko, etherscan } = up;
  const { debank } = up.defi;
  const alchemyKey = up.alchemyNft.apiKey;
  const proKey = up.defi.defillamaPro.apiKey;
  const rows: ProbeRow[] = [
    {
      source: 'coingecko',
      vendor: /^https?:\/\/pro-api\./i.test(coingecko.url ?? '') ? 'coingecko-pro' : 'coingecko-demo',
      baseUrl: coingecko.url,
      credential: coingecko.apiKey,
      key: 'checked',
      send: (o, baseUrl) => new CoinGeckoClient({ ...o, baseUrl, apiKey: coingecko.apiKey }).marketQuotes(['ethereum']),
    },
    {
      source: 'defillama-coins',
      baseUrl: up.defillamaCoins.url,
      send: (o, baseUrl) => new DefiLlamaCoinsClient({ ...o, baseUrl }).currentPrices(['ethereum']),
    },
    {
      source: 'coinbase',
      baseUrl: up.coinbase.url,
      send: (o, baseUrl) => new CoinbaseSpotClient({ ...o, baseUrl }).spotPrice('ETH-USD'),
    },
    {
      source: 'neynar',
      baseUrl: neynar?.url,
      credential: neynar?.apiKey,
      key: 'checked',
      send: (o, baseUrl) => new NeynarClient({ ...o, baseUrl, apiKey: neynar?.apiKey }).usersByFids([3]),
    },
    {
      source: 'farcaster-hub',
      baseUrl: hub?.url,
      credential: hub?.apiKey,
      key: 'checked',
      send: (o, baseUrl) => new FarcasterHubClient({ ...o, baseUrl, apiKey: hub?.apiKey }).fidByUsername('dwr'),
    },
    {
      source: 'etherscan',
      baseUrl: etherscan.url,
      credential: etherscan.apiKey,
      key: 'checked',
      send: (o, baseUrl) =>
        new EtherscanClient({ ...o, baseUrl, apiKey: etherscan.apiKey }).firstTransaction('ethereum', PROBE_WALLET),
    },
    {
      source: 'sourcify',
      baseUrl: up.sourcify.url,
      send: (o, baseUrl) =>
        new SourcifyClient({ ...o, baseUrl }).contract('ethereum', '0x8398791FBD1a5f0EFB4B3F9d81233104137D815f'),
    },
    {
      source: 'alchemy-nft',
      baseUrl: alchemyKey && new URL(alchemyNftBaseUrl('ethereum', alchemyKey)).origin,
      credential: alchemyKey,
      key: 'checked',
      send: (o) =>
        new AlchemyNftClient({ ...o, baseUrlFor: (chain) => alchemyNftBaseUrl(chain, alchemyKey!) }).ownedPage(
          'ethereum',
          PROBE_WALLET,
          null,
        ),
    },
    {
      source: 'defillama',
      baseUrl: up.defi.defillama.url,
      // One protocol's TVL, a number: the smallest reply of the free API (the protocol list is megabytes).
      send: (o, baseUrl) => new DefiLlamaClient({ ...o, baseUrl }).http.getJson('/tvl/lido'),
    },
    {
      source: 'defillama-yields',
      baseUrl: up.defi.yields.url,
      send: (o, baseUrl) => new DefiLlamaYieldsClient({ ...o, baseUrl }).pools(),
    },
    {
      source: 'defillama-pro',
      baseUrl: proKey && new URL(defillamaProBaseUrl(proKey)).origin,
      credential: proKey,
      key: 'checked',
      send: (o) => new DefiLlamaProClient({ ...o, baseUrl: defillamaProBaseUrl(proKey!) }).hacks(),
    },
    {
      source: 'debank',
      baseUrl: debank.url,
      credential: debank.accessKey,
      key: 'checked',
      send: (o, baseUrl) =>
        new DebankClient({ ...o, baseUrl, headers: debankHeaders(debank.accessKey) }).positions(VITALIK),
    },
    {
      source: 'growthepie',
      baseUrl: up.defi.growthepie.url,
      send: (o, baseUrl) => new GrowthepieClient({ ...o, baseUrl }).chainActivity(),
    },
    {
      source: 'ens-subgraph',
      baseUrl: up.ensSubgraph.url,
      // The Graph's gateway takes its key in the URL path.
      key: 'in-url',
      send: (o, url) => new EnsSubgraphClient({ ...o, url }).domainsOf(VITALIK),
    },
    ...CHAINS.map(
      (chain): ProbeRow => ({
        source: `rpc:${chain.key}`,
        vendor: 'json-rpc',
        baseUrl: config.chains[chain.key].rpcUrl,
        // Providers take their key in the URL.
        key: 'in-url',
        expectedChainId: chain.id,
        send: (o, rpcUrl) =>
          o.fetch(rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
            signal: AbortSignal.timeout(config.upstreamTimeoutMs),
          }),
      }),
    ),
  ];
  return rows.flatMap(({ baseUrl, send, ...row }): SourceProbe[] => {
    if (baseUrl === undefined) return [];
    const options = (fetch: typeof globalThis.fetch): ProbeClientOptions => ({
      mode: 'live',
      registry: new SourceHealthRegistry(),
      timeoutMs: config.upstreamTimeoutMs,
      // One request: a retry would hide what the first reply was.
      policy: { retries: 0 },
      fetch,
    });
    return [
      {
        ...row,
        vendor: row.vendor ?? row.source,
        baseUrl,
        credential: row.credential,
        key: row.key ?? 'none',
        send: (fetch) => send(options(fetch), baseUrl),
      },
    ];
  });
}
