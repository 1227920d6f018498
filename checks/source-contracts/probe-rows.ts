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
import type { SourceHealthRegistry } from '../../src/sources/source-health.js';
import type { SourceProbe } from './source-probe.js';

/** A wallet every upstream knows something (or nothing) about: anvil's second development account. */
const PROBE_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';

/** What every client of a probe is built with: live, its own health registry, the configured timeout, no retry. */
export interface ProbeClientOptions {
  mode: 'live';
  registry: SourceHealthRegistry;
  timeoutMs: number;
  policy: { retries: number };
  fetch: typeof globalThis.fetch;
}

/** One row of the probe table: the upstream as configured, and the one request that probes it. */
export interface ProbeRow extends Partial<Pick<SourceProbe, 'credential' | 'expectedChainId'>> {
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

type Upstreams = AppConfig['upstreams'];

/** Token prices: CoinGecko (demo or pro, by its URL), DefiLlama's coins, Coinbase's spot price. */
export function priceProbeRows(up: Upstreams): ProbeRow[] {
  const { coingecko } = up;
  return [
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
  ];
}

/** Farcaster: Neynar and a hub, each as configured. */
export function farcasterProbeRows(up: Upstreams): ProbeRow[] {
  const { neynar, hub } = up.farcaster;
  return [
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
  ];
}

/** What the wallet routes read besides the chain: Etherscan, Sourcify, Alchemy's NFT API. */
export function walletProbeRows(up: Upstreams): ProbeRow[] {
  const { etherscan } = up;
  const alchemyKey = up.alchemyNft.apiKey;
  return [
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
  ];
}

/** DeFi: DefiLlama (free, yields, pro), DeBank, growthepie. */
export function defiProbeRows(up: Upstreams): ProbeRow[] {
  const { debank } = up.defi;
  const proKey = up.defi.defillamaPro.apiKey;
  return [
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
  ];
}

/** Chain data: the ENS subgraph, and each chain's JSON-RPC node (which must answer its chain id). */
export function chainProbeRows(config: AppConfig): ProbeRow[] {
  return [
    {
      source: 'ens-subgraph',
      baseUrl: config.upstreams.ensSubgraph.url,
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
}
