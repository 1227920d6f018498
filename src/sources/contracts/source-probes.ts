import { CHAINS } from '../../config/chains.js';
import type { AppConfig } from '../../config/config.js';
import { DebankClient, debankHeaders } from '../defi/debank-client.js';
import { defillamaProBaseUrl } from '../defi/defi-sources.js';
import { DefiLlamaClient } from '../defi/defillama-client.js';
import { DefiLlamaProClient } from '../defi/defillama-pro-client.js';
import { DefiLlamaYieldsClient } from '../defi/defillama-yields-client.js';
import { GrowthepieClient } from '../defi/growthepie-client.js';
import { EnsSubgraphClient } from '../ens/ens-subgraph-client.js';
import { EtherscanClient } from '../explorer/etherscan-client.js';
import { SourcifyClient } from '../explorer/sourcify-client.js';
import { FarcasterHubClient } from '../farcaster/farcaster-hub-client.js';
import { NeynarClient } from '../farcaster/neynar-client.js';
import { AlchemyNftClient, alchemyNftBaseUrl } from '../nft/alchemy-nft-client.js';
import { CoinbaseSpotClient } from '../prices/coinbase-spot-client.js';
import { CoinGeckoClient } from '../prices/coingecko-client.js';
import { DefiLlamaCoinsClient } from '../prices/defillama-coins-client.js';
import { SourceHealthRegistry } from '../source-health.js';

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

/**
 * A probe for every upstream the configuration makes live (an unset one runs on the local replay: nothing to check).
 * Each sends ONE request, chosen among the cheapest the client makes.
 * @example sourceProbes(loadConfig(process.env)).map((p) => p.source) // ['coingecko', 'neynar', …]
 */
export function sourceProbes(config: AppConfig): SourceProbe[] {
  const up = config.upstreams;
  const common = (fetch: typeof globalThis.fetch) => ({
    mode: 'live' as const,
    registry: new SourceHealthRegistry(),
    timeoutMs: config.upstreamTimeoutMs,
    // One request: a retry would hide what the first reply was.
    policy: { retries: 0 },
    fetch,
  });
  const probes: SourceProbe[] = [];
  const add = (probe: SourceProbe | false | undefined) => {
    if (probe) probes.push(probe);
  };

  const coingecko = up.coingecko.url;
  add(
    coingecko !== undefined && {
      source: 'coingecko',
      vendor: /^https?:\/\/pro-api\./i.test(coingecko) ? 'coingecko-pro' : 'coingecko-demo',
      baseUrl: coingecko,
      credential: up.coingecko.apiKey,
      key: 'checked',
      send: (fetch) =>
        new CoinGeckoClient({ ...common(fetch), baseUrl: coingecko, apiKey: up.coingecko.apiKey }).marketQuotes([
          'ethereum',
        ]),
    },
  );
  const coins = up.defillamaCoins.url;
  add(
    coins !== undefined && {
      source: 'defillama-coins',
      vendor: 'defillama-coins',
      baseUrl: coins,
      credential: undefined,
      key: 'none',
      send: (fetch) => new DefiLlamaCoinsClient({ ...common(fetch), baseUrl: coins }).currentPrices(['ethereum']),
    },
  );
  const coinbase = up.coinbase.url;
  add(
    coinbase !== undefined && {
      source: 'coinbase',
      vendor: 'coinbase',
      baseUrl: coinbase,
      credential: undefined,
      key: 'none',
      send: (fetch) => new CoinbaseSpotClient({ ...common(fetch), baseUrl: coinbase }).spotPrice('ETH-USD'),
    },
  );

  const { neynar, hub } = up.farcaster;
  add(
    neynar && {
      source: 'neynar',
      vendor: 'neynar',
      baseUrl: neynar.url,
      credential: neynar.apiKey,
      key: 'checked',
      send: (fetch) =>
        new NeynarClient({ ...common(fetch), baseUrl: neynar.url, apiKey: neynar.apiKey }).usersByFids([3]),
    },
  );
  add(
    hub && {
      source: 'farcaster-hub',
      vendor: 'farcaster-hub',
      baseUrl: hub.url,
      credential: hub.apiKey,
      key: 'checked',
      send: (fetch) =>
        new FarcasterHubClient({ ...common(fetch), baseUrl: hub.url, apiKey: hub.apiKey }).fidByUsername('dwr'),
    },
  );

  const { etherscan, sourcify, alchemyNft } = up;
  const etherscanUrl = etherscan.url;
  add(
    etherscanUrl !== undefined && {
      source: 'etherscan',
      vendor: 'etherscan',
      baseUrl: etherscanUrl,
      credential: etherscan.apiKey,
      key: 'checked',
      send: (fetch) =>
        new EtherscanClient({ ...common(fetch), baseUrl: etherscanUrl, apiKey: etherscan.apiKey }).firstTransaction(
          'ethereum',
          PROBE_WALLET,
        ),
    },
  );
  const sourcifyUrl = sourcify.url;
  add(
    sourcifyUrl !== undefined && {
      source: 'sourcify',
      vendor: 'sourcify',
      baseUrl: sourcifyUrl,
      credential: undefined,
      key: 'none',
      send: (fetch) =>
        new SourcifyClient({ ...common(fetch), baseUrl: sourcifyUrl }).contract(
          'ethereum',
          '0x8398791FBD1a5f0EFB4B3F9d81233104137D815f',
        ),
    },
  );
  const alchemyKey = alchemyNft.apiKey;
  add(
    alchemyKey !== undefined && {
      source: 'alchemy-nft',
      vendor: 'alchemy-nft',
      baseUrl: new URL(alchemyNftBaseUrl('ethereum', alchemyKey)).origin,
      credential: alchemyKey,
      key: 'checked',
      send: (fetch) =>
        new AlchemyNftClient({
          ...common(fetch),
          baseUrlFor: (chain) => alchemyNftBaseUrl(chain, alchemyKey),
        }).ownedPage('ethereum', PROBE_WALLET, null),
    },
  );

  const d = up.defi;
  const llama = d.defillama.url;
  add(
    llama !== undefined && {
      source: 'defillama',
      vendor: 'defillama',
      baseUrl: llama,
      credential: undefined,
      key: 'none',
      // One protocol's TVL, a number: the smallest reply of the free API (the protocol list is megabytes).
      send: (fetch) => new DefiLlamaClient({ ...common(fetch), baseUrl: llama }).http.getJson('/tvl/lido'),
    },
  );
  const yields = d.yields.url;
  add(
    yields !== undefined && {
      source: 'defillama-yields',
      vendor: 'defillama-yields',
      baseUrl: yields,
      credential: undefined,
      key: 'none',
      send: (fetch) => new DefiLlamaYieldsClient({ ...common(fetch), baseUrl: yields }).pools(),
    },
  );
  const proKey = d.defillamaPro.apiKey;
  add(
    proKey !== undefined && {
      source: 'defillama-pro',
      vendor: 'defillama-pro',
      baseUrl: new URL(defillamaProBaseUrl(proKey)).origin,
      credential: proKey,
      key: 'checked',
      send: (fetch) => new DefiLlamaProClient({ ...common(fetch), baseUrl: defillamaProBaseUrl(proKey) }).hacks(),
    },
  );
  const debank = d.debank.url;
  add(
    debank !== undefined && {
      source: 'debank',
      vendor: 'debank',
      baseUrl: debank,
      credential: d.debank.accessKey,
      key: 'checked',
      send: (fetch) =>
        new DebankClient({ ...common(fetch), baseUrl: debank, headers: debankHeaders(d.debank.accessKey) }).positions(
          VITALIK,
        ),
    },
  );
  const growthepie = d.growthepie.url;
  add(
    growthepie !== undefined && {
      source: 'growthepie',
      vendor: 'growthepie',
      baseUrl: growthepie,
      credential: undefined,
      key: 'none',
      send: (fetch) => new GrowthepieClient({ ...common(fetch), baseUrl: growthepie }).chainActivity(),
    },
  );
  const subgraph = up.ensSubgraph.url;
  add(
    subgraph !== undefined && {
      source: 'ens-subgraph',
      vendor: 'ens-subgraph',
      baseUrl: subgraph,
      // The Graph's gateway takes its key in the URL path.
      credential: undefined,
      key: 'in-url',
      send: (fetch) => new EnsSubgraphClient({ ...common(fetch), url: subgraph }).domainsOf(VITALIK),
    },
  );

  for (const chain of CHAINS) {
    const rpcUrl = config.chains[chain.key].rpcUrl;
    add(
      rpcUrl !== undefined && {
        source: `rpc:${chain.key}`,
        vendor: 'json-rpc',
        baseUrl: rpcUrl,
        // Providers take their key in the URL.
        credential: undefined,
        key: 'in-url',
        expectedChainId: chain.id,
        send: (fetch) =>
          fetch(rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
            signal: AbortSignal.timeout(config.upstreamTimeoutMs),
          }),
      },
    );
  }
  return probes;
}
