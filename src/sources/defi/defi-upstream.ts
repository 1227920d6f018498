import type { HttpJsonSource } from '../http-json-source.js';
import { type HttpUpstreamParams, httpUpstream } from '../http-upstream.js';
import type { SourceClient } from '../source-client.js';

/** docs/api-contract.md#data-freshness: DeFi TVL 5 minutes; every DeFi upstream is cached that long. */
export const DEFI_FRESHNESS_MS = 5 * 60_000;

/** Where one DeFi upstream is and how it is watched. */
export type DefiUpstreamParams = HttpUpstreamParams;

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
  return httpUpstream({ ...p, name, kind: 'defi', description, freshnessMs });
}

/** A string field, or null for anything else (missing, empty, a number). */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The strings of an array field; anything that is not an array of strings gives []. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}
