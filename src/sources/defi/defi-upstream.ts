import { HttpJsonSource } from '../http-json-source.js';
import { SourceClient } from '../source-client.js';
import type { SourceHealthRegistry, SourceMode } from '../source-health.js';
import type { SourcePolicy } from '../source-policy.js';

/** SPEC "Data freshness": DeFi TVL 5 minutes; every DeFi upstream is cached that long. */
export const DEFI_FRESHNESS_MS = 5 * 60_000;

/** Where one DeFi upstream is and how it is watched. */
export interface DefiUpstreamParams {
  /** Origin of the upstream (or of its replay). */
  baseUrl: string;
  mode: SourceMode;
  registry: SourceHealthRegistry;
  /** Per attempt (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Sent on every request (API keys); never logged. */
  headers?: Record<string, string>;
  policy?: Partial<Omit<SourcePolicy, 'name' | 'kind' | 'mode'>>;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * The source client and HTTP source of one DeFi upstream, registered for /api/sources/health under `name`.
 * @example const { client, http } = defiUpstream('defillama', 'DefiLlama TVL API', params)
 */
export function defiUpstream(
  name: string,
  description: string,
  p: DefiUpstreamParams,
  freshnessMs: number = DEFI_FRESHNESS_MS,
): { client: SourceClient; http: HttpJsonSource } {
  const client = new SourceClient({
    policy: {
      name,
      kind: 'defi',
      mode: p.mode,
      description: p.mode === 'live' ? description : `${description}: replay of recorded replies`,
      freshnessMs,
      timeoutMs: p.timeoutMs,
      ...p.policy,
    },
    registry: p.registry,
    ...(p.now === undefined ? {} : { now: p.now }),
  });
  const http = new HttpJsonSource({
    baseUrl: p.baseUrl,
    client,
    ...(p.headers === undefined ? {} : { headers: p.headers }),
    ...(p.fetch === undefined ? {} : { fetch: p.fetch }),
  });
  return { client, http };
}

/** A string field, or null for anything else (missing, empty, a number). */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The strings of an array field; anything that is not an array of strings gives []. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}
