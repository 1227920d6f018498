import type { AppConfig } from '../../config/config.js';
import type { ReplayUrls } from '../http-upstream.js';
import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import { DebankClient, debankHeaders } from './debank-client.js';
import { DefiLlamaClient } from './defillama-client.js';
import { DefiLlamaProClient } from './defillama-pro-client.js';
import { DefiLlamaYieldsClient } from './defillama-yields-client.js';
import { GrowthepieClient } from './growthepie-client.js';

/** The DeFi, activity and event upstreams. */
export interface DefiSources {
  /** api.llama.fi: protocols, protocol detail. */
  defillama: DefiLlamaClient;
  /** yields.llama.fi: pools. */
  yields: DefiLlamaYieldsClient;
  /**
   * pro-api.llama.fi: token unlocks, hacks and raises (pro-only). Undefined when DefiLlama is live without a pro key:
   * the routes needing it answer 503 rather than recorded data.
   */
  pro: DefiLlamaProClient | undefined;
  /** DeBank Cloud: wallet positions. */
  debank: DebankClient;
  /** growthepie: active addresses per chain. */
  growthepie: GrowthepieClient;
}

/** Where one upstream is (the real one, or the replay) and what it must be sent. */
export interface DefiUpstream {
  baseUrl: string;
  mode: SourceMode;
  headers?: Record<string, string>;
}

/**
 * Builds the DeFi clients, each registered in the health registry under its own name
 * (defillama, defillama-yields, defillama-pro, debank, growthepie).
 * @example createDefiSources({ defillama: { baseUrl: 'https://api.llama.fi', mode: 'live' }, …, registry, timeoutMs: 5000 })
 */
export function createDefiSources(p: {
  defillama: DefiUpstream;
  yields: DefiUpstream;
  pro: DefiUpstream | undefined;
  debank: DefiUpstream;
  growthepie: DefiUpstream;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}): DefiSources {
  const common = { registry: p.registry, timeoutMs: p.timeoutMs };
  return {
    defillama: new DefiLlamaClient({ ...p.defillama, ...common }),
    yields: new DefiLlamaYieldsClient({ ...p.yields, ...common }),
    pro: p.pro && new DefiLlamaProClient({ ...p.pro, ...common }),
    debank: new DebankClient({ ...p.debank, ...common }),
    growthepie: new GrowthepieClient({ ...p.growthepie, ...common }),
  };
}

/** The DefiLlama pro API's origin: the key is the first path segment (`pro-api.llama.fi/{key}/api/emissions`). */
export const DEFILLAMA_PRO_URL = 'https://pro-api.llama.fi';

/** The key the replay's recorded pro paths carry (`/replay-key/api/hacks`), as the live key sits in the path. */
export const REPLAY_DEFILLAMA_PRO_KEY = 'replay-key';

/**
 * The DefiLlama pro API's base URL for a key.
 * @example defillamaProBaseUrl('k') // 'https://pro-api.llama.fi/k'
 */
export const defillamaProBaseUrl = (apiKey: string): string => `${DEFILLAMA_PRO_URL}/${encodeURIComponent(apiKey)}`;

/**
 * Where DefiLlama's pro-only data comes from: live with a key; the replay when DefiLlama is not configured at all (the
 * embedded default); nowhere when the free API is live without a key (recorded data must not pass for live data).
 */
export function defillamaProMode(config: AppConfig): 'live' | 'local' | 'not-configured' {
  const d = config.upstreams.defi;
  if (d.defillamaPro.apiKey !== undefined) return 'live';
  return d.defillama.url === undefined ? 'local' : 'not-configured';
}

/** Whether any DeFi upstream runs on the local replay (some env var unset). */
export function defiSourcesNeedReplay(config: AppConfig): boolean {
  const d = config.upstreams.defi;
  return (
    [d.defillama.url, d.yields.url, d.debank.url, d.growthepie.url].some((v) => v === undefined) ||
    defillamaProMode(config) === 'local'
  );
}

/**
 * The DeFi clients as configured: each live where its env var is set, else the replay's recordings under
 * recordings/<name>/ (defillama, defillama-yields, defillama-pro, debank, growthepie).
 * @example createDefiSourcesFromConfig({ config, replay, registry })
 */
export function createDefiSourcesFromConfig(p: {
  config: AppConfig;
  replay: ReplayUrls | undefined;
  registry: SourceHealthRegistry;
}): DefiSources {
  const d = p.config.upstreams.defi;
  const local = (name: string): DefiUpstream => {
    if (!p.replay) throw new Error(`DeFi source ${name} needs the replay, which was not started`);
    return { baseUrl: p.replay.baseUrlFor(name), mode: 'local' };
  };
  const at = (url: string | undefined, name: string): DefiUpstream =>
    url === undefined ? local(name) : { baseUrl: url, mode: 'live' };
  const proKey = d.defillamaPro.apiKey;
  const proMode = defillamaProMode(p.config);
  return createDefiSources({
    defillama: at(d.defillama.url, 'defillama'),
    yields: at(d.yields.url, 'defillama-yields'),
    pro:
      proMode === 'live'
        ? { baseUrl: defillamaProBaseUrl(proKey!), mode: 'live' }
        : proMode === 'local'
          ? { ...local('defillama-pro'), baseUrl: `${local('defillama-pro').baseUrl}/${REPLAY_DEFILLAMA_PRO_KEY}` }
          : undefined,
    debank:
      d.debank.url === undefined
        ? local('debank')
        : {
            baseUrl: d.debank.url,
            mode: 'live',
            headers: debankHeaders(d.debank.accessKey),
          },
    growthepie: at(d.growthepie.url, 'growthepie'),
    registry: p.registry,
    timeoutMs: p.config.upstreamTimeoutMs,
  });
}
