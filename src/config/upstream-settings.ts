import { z } from 'zod';
import { invalidConfiguration } from './config-error.js';
import { type ConfigArea, optional, type SettingsOf, urlSchema, withDefault } from './config-variable.js';

/** Etherscan's API v2 origin, used when only ETHERSCAN_API_KEY is set. */
export const ETHERSCAN_DEFAULT_URL = 'https://api.etherscan.io';

/** DeBank Cloud OpenAPI origin, used when only DEBANK_ACCESS_KEY is set. */
export const DEBANK_DEFAULT_URL = 'https://pro-openapi.debank.com';

/** Neynar's public API origin, used when only NEYNAR_API_KEY is set. */
export const NEYNAR_DEFAULT_URL = 'https://api.neynar.com';

const key = (meaning: string) => optional(z.string(), meaning, { unset: 'replay', secret: true });
const origin = (meaning: string, options: { secret?: boolean } = {}) =>
  optional(urlSchema, meaning, { unset: 'replay', ...options });

/** The upstream HTTP APIs: each live when set, the local replay of recorded replies otherwise. */
export const UPSTREAM_AREA = {
  title: 'Upstream APIs',
  about: 'Each live when set, the local replay of recorded replies otherwise; check them with npm run sources:check',
  variables: {
    UPSTREAM_TIMEOUT_MS: withDefault(
      '5000',
      z.coerce.number().int().min(100).max(60_000),
      'deadline of one upstream call, every retry and wait between attempts included; past it the cached value is served if there is one, else 503',
    ),
    COINGECKO_API_URL: origin(
      'CoinGecko origin: `https://api.coingecko.com` (demo key) or `https://pro-api.coingecko.com` (pro key)',
    ),
    COINGECKO_API_KEY: key('CoinGecko key (demo or pro header chosen by the host)'),
    DEFILLAMA_COINS_URL: origin('DefiLlama coins API (smart price), `https://coins.llama.fi`'),
    COINBASE_API_URL: origin('Coinbase spot prices API v2 (smart price), `https://api.coinbase.com`'),
    NEYNAR_API_URL: origin(
      'Neynar v2, the primary Farcaster source (default `https://api.neynar.com` when the key is set); with none of the four Farcaster variables set, Neynar and the hub are both the replay, otherwise each one configured is live and the other absent',
    ),
    NEYNAR_API_KEY: key('Neynar API key (makes Neynar live)'),
    FARCASTER_HUB_URL: origin(
      'a Farcaster hub / Snapchain HTTP API, the fallback (`https://snapchain-api.neynar.com`); with only a hub, search, the feed and lookups by address answer 503',
    ),
    FARCASTER_HUB_API_KEY: key("the hub's API key"),
    ETHERSCAN_API_URL: origin(
      'Etherscan API v2 (transactions, address age, ABI), default `https://api.etherscan.io` when a key is set; a URL needs a key (`ETHERSCAN_API_KEY` or its own `?apikey=`), else start fails',
      // Etherscan's docs write the key into the URL (`?apikey=`), so an operator may too.
      { secret: true },
    ),
    ETHERSCAN_API_KEY: key('Etherscan API v2 key, one for every chain'),
    SOURCIFY_API_URL: origin('Sourcify v2 (ABI fallback), e.g. `https://sourcify.dev/server`'),
    ALCHEMY_API_KEY: key('Alchemy NFT API v3 key (wallet NFTs on every chain)'),
    DEFILLAMA_API_URL: origin('DefiLlama TVL API, `https://api.llama.fi`'),
    DEFILLAMA_YIELDS_URL: origin('DefiLlama yields server, `https://yields.llama.fi`'),
    DEFILLAMA_PRO_API_KEY: key(
      'DefiLlama pro API key (hacks, raises, unlocks: pro-only; DefiLlama live without a key: `/api/events*` answer 503)',
    ),
    DEBANK_API_URL: origin(
      'DeBank Cloud OpenAPI (DeFi positions), default `https://pro-openapi.debank.com` when a key is set',
    ),
    DEBANK_ACCESS_KEY: key('DeBank access key'),
    GROWTHEPIE_API_URL: origin('growthepie (active users per chain), `https://api.growthepie.com`'),
    ENS_SUBGRAPH_URL: optional(
      urlSchema,
      'ENS subgraph (names by address, registrant, expiry), e.g. `https://gateway.thegraph.com/api/<key>/subgraphs/id/<id>`; unset with a live `ETH_RPC_URL`: those routes answer 503',
      { unset: 'chain events' },
    ),
  },
} as const satisfies ConfigArea;

type UpstreamSettings = SettingsOf<typeof UPSTREAM_AREA.variables>;

export interface UpstreamConfig {
  upstreamTimeoutMs: number;
  upstreams: {
    coingecko: { url: string | undefined; apiKey: string | undefined };
    defillamaCoins: { url: string | undefined };
    coinbase: { url: string | undefined };
    /** Farcaster: `local` = both replayed; `live` = each configured one live, the other absent. */
    farcaster: {
      mode: 'live' | 'local';
      neynar: { url: string; apiKey: string | undefined } | undefined;
      hub: { url: string; apiKey: string | undefined } | undefined;
    };
    /** Etherscan API v2 origin (live) or undefined (local replay). */
    etherscan: { url: string | undefined; apiKey: string | undefined };
    /** Sourcify server URL (live) or undefined (local replay). */
    sourcify: { url: string | undefined };
    /** Alchemy NFT API key (live) or undefined (local replay). */
    alchemyNft: { apiKey: string | undefined };
    /** DeFi, activity and event upstreams: a URL (or key) means live, undefined the local replay. */
    defi: {
      defillama: { url: string | undefined };
      yields: { url: string | undefined };
      /** DefiLlama pro API key (token unlocks); the key is part of the pro API's URL path. */
      defillamaPro: { apiKey: string | undefined };
      debank: { url: string | undefined; accessKey: string | undefined };
      growthepie: { url: string | undefined };
    };
    /** ENS subgraph GraphQL URL (live) or undefined (names by address from the embedded chain's events). */
    ensSubgraph: { url: string | undefined };
  };
}

/** Live Farcaster upstreams as configured; none configured means the local replay of both. */
function farcasterUpstreams(e: UpstreamSettings): UpstreamConfig['upstreams']['farcaster'] {
  const neynarLive = e.NEYNAR_API_KEY !== undefined || e.NEYNAR_API_URL !== undefined;
  const hubLive = e.FARCASTER_HUB_URL !== undefined;
  if (!neynarLive && !hubLive) return { mode: 'local', neynar: undefined, hub: undefined };
  return {
    mode: 'live',
    neynar: neynarLive ? { url: e.NEYNAR_API_URL ?? NEYNAR_DEFAULT_URL, apiKey: e.NEYNAR_API_KEY } : undefined,
    hub: hubLive ? { url: e.FARCASTER_HUB_URL!, apiKey: e.FARCASTER_HUB_API_KEY } : undefined,
  };
}

/**
 * Etherscan v2 as configured: the key from ETHERSCAN_API_KEY, else from an `apikey` in ETHERSCAN_API_URL (the form
 * Etherscan's docs show), which is then dropped from the URL; a URL with no key at all is refused at start, since v2
 * answers every keyless call with "Missing/Invalid API Key".
 */
function etherscanUpstream(e: UpstreamSettings): UpstreamConfig['upstreams']['etherscan'] {
  if (e.ETHERSCAN_API_URL === undefined) {
    return { url: e.ETHERSCAN_API_KEY === undefined ? undefined : ETHERSCAN_DEFAULT_URL, apiKey: e.ETHERSCAN_API_KEY };
  }
  const url = new URL(e.ETHERSCAN_API_URL);
  const apiKey = e.ETHERSCAN_API_KEY ?? (url.searchParams.get('apikey') || undefined);
  if (apiKey === undefined) {
    throw invalidConfiguration([
      'ETHERSCAN_API_URL: Etherscan API v2 refuses every call without a key: set ETHERSCAN_API_KEY',
    ]);
  }
  url.search = '';
  url.hash = '';
  return { url: url.href.replace(/\/+$/, ''), apiKey };
}

export function upstreamConfig(e: UpstreamSettings): UpstreamConfig {
  return {
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreams: {
      coingecko: { url: e.COINGECKO_API_URL, apiKey: e.COINGECKO_API_KEY },
      defillamaCoins: { url: e.DEFILLAMA_COINS_URL },
      coinbase: { url: e.COINBASE_API_URL },
      farcaster: farcasterUpstreams(e),
      etherscan: etherscanUpstream(e),
      sourcify: { url: e.SOURCIFY_API_URL },
      alchemyNft: { apiKey: e.ALCHEMY_API_KEY },
      defi: {
        defillama: { url: e.DEFILLAMA_API_URL },
        yields: { url: e.DEFILLAMA_YIELDS_URL },
        defillamaPro: { apiKey: e.DEFILLAMA_PRO_API_KEY },
        debank: {
          url: e.DEBANK_API_URL ?? (e.DEBANK_ACCESS_KEY === undefined ? undefined : DEBANK_DEFAULT_URL),
          accessKey: e.DEBANK_ACCESS_KEY,
        },
        growthepie: { url: e.GROWTHEPIE_API_URL },
      },
      ensSubgraph: { url: e.ENS_SUBGRAPH_URL },
    },
  };
}
