import type { AppConfig } from '../../config/config.js';
import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import { DebankClient } from './debank-client.js';
import { DefiLlamaClient } from './defillama-client.js';
import { DefiLlamaEmissionsClient } from './defillama-emissions-client.js';
import { DefiLlamaYieldsClient } from './defillama-yields-client.js';
import { GrowthepieClient } from './growthepie-client.js';

/** The DeFi, activity and event upstreams. */
export interface DefiSources {
  /** api.llama.fi: protocols, protocol detail, hacks, raises. */
  defillama: DefiLlamaClient;
  /** yields.llama.fi: pools. */
  yields: DefiLlamaYieldsClient;
  /** pro-api.llama.fi: token unlock schedules. */
  emissions: DefiLlamaEmissionsClient;
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
  emissions: DefiUpstream;
  debank: DefiUpstream;
  growthepie: DefiUpstream;
  registry: SourceHealthRegistry;
  timeoutMs: number;
}): DefiSources {
  const common = { registry: p.registry, timeoutMs: p.timeoutMs };
  return {
    defillama: new DefiLlamaClient({ ...p.defillama, ...common }),
    yields: new DefiLlamaYieldsClient({ ...p.yields, ...common }),
    emissions: new DefiLlamaEmissionsClient({ ...p.emissions, ...common }),
    debank: new DebankClient({ ...p.debank, ...common }),
    growthepie: new GrowthepieClient({ ...p.growthepie, ...common }),
  };
}

/** The DefiLlama pro API's base: the key is the first path segment (`pro-api.llama.fi/{key}/api/emissions`). */
const DEFILLAMA_PRO_URL = 'https://pro-api.llama.fi';

/** Whether any DeFi upstream runs on the local replay (some env var unset). */
export function defiSourcesNeedReplay(config: AppConfig): boolean {
  const d = config.upstreams.defi;
  return [d.defillama.url, d.yields.url, d.defillamaPro.apiKey, d.debank.url, d.growthepie.url].some(
    (v) => v === undefined,
  );
}

/**
 * The DeFi clients as configured: each live where its env var is set, else the replay's recordings under
 * test/fixtures/<name>/ (defillama, defillama-yields, defillama-pro, debank, growthepie).
 * @example createDefiSourcesFromConfig({ config, replay, registry })
 */
export function createDefiSourcesFromConfig(p: {
  config: AppConfig;
  replay: { baseUrlFor(source: string): string } | undefined;
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
  return createDefiSources({
    defillama: at(d.defillama.url, 'defillama'),
    yields: at(d.yields.url, 'defillama-yields'),
    emissions:
      proKey === undefined
        ? local('defillama-pro')
        : { baseUrl: `${DEFILLAMA_PRO_URL}/${encodeURIComponent(proKey)}/api`, mode: 'live' },
    debank:
      d.debank.url === undefined
        ? local('debank')
        : {
            baseUrl: d.debank.url,
            mode: 'live',
            headers: d.debank.accessKey === undefined ? {} : { AccessKey: d.debank.accessKey },
          },
    growthepie: at(d.growthepie.url, 'growthepie'),
    registry: p.registry,
    timeoutMs: p.config.upstreamTimeoutMs,
  });
}
