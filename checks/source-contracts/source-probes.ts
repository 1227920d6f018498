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
