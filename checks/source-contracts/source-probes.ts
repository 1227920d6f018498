import type { AppConfig } from '../../src/config/config.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import {
  chainProbeRows,
  defiProbeRows,
  farcasterProbeRows,
  type ProbeClientOptions,
  type ProbeRow,
  priceProbeRows,
  walletProbeRows,
} from './probe-rows.js';
import type { SourceProbe } from './source-probe.js';

/**
 * A probe for every upstream the configuration makes live (an unset one runs on the local replay: nothing to check).
 * Each sends ONE request, chosen among the cheapest the client makes.
 * @example sourceProbes(loadConfig(process.env)).map((p) => p.source) // ['coingecko', 'neynar', …]
 */
export function sourceProbes(config: AppConfig): SourceProbe[] {
  const up = config.upstreams;
  const rows: ProbeRow[] = [
    ...priceProbeRows(up),
    ...farcasterProbeRows(up),
    ...walletProbeRows(up),
    ...defiProbeRows(up),
    ...chainProbeRows(config),
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
