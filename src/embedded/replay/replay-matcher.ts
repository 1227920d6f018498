import { isDeepStrictEqual } from 'node:util';
import type { ReplayEntry } from './replay-fixtures.js';

/** The part of an incoming request a recorded reply is chosen by. */
export interface ReplayRequest {
  method: string;
  /** Relative to the source's base URL, e.g. '/api/v3/simple/price'. */
  path: string;
  query: URLSearchParams;
  /** The request body parsed as JSON, when it is JSON (undefined otherwise). */
  body?: unknown;
}

function bodyMatches(expected: Record<string, unknown> | undefined, actual: unknown): boolean {
  if (expected === undefined) return true;
  if (!actual || typeof actual !== 'object') return false;
  const fields = actual as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => isDeepStrictEqual(fields[key], value));
}

function queryMatches(expected: Record<string, string> | undefined, actual: URLSearchParams): boolean {
  return Object.entries(expected ?? {}).every(([key, value]) => {
    const got = actual.get(key);
    return got !== null && (value === '*' || got === value);
  });
}

/** Higher is more specific: an exact path beats '*', then more body fields, then more query keys, then more exact values. */
function specificity(entry: ReplayEntry): number {
  const query = Object.values(entry.request.query ?? {});
  const exactValues = query.filter((v) => v !== '*').length;
  const bodyFields = Object.keys(entry.request.body ?? {}).length;
  return (entry.request.path === '*' ? 0 : 1_000_000) + bodyFields * 100_000 + query.length * 1000 + exactValues;
}

/**
 * Picks the recorded reply for a request: the active scenario's entries first, then the scenario-less
 * ones; within each, the most specific match, earliest in file order on a tie.
 * @example selectReplayEntry(entries, { method: 'GET', path: '/api/v3/ping', query: new URLSearchParams() }, null)
 */
export function selectReplayEntry(
  entries: readonly ReplayEntry[],
  request: ReplayRequest,
  activeScenario: string | null,
): ReplayEntry | undefined {
  const matching = entries.filter(
    (e) =>
      e.request.method === request.method.toUpperCase() &&
      (e.request.path === '*' || e.request.path === request.path) &&
      queryMatches(e.request.query, request.query) &&
      bodyMatches(e.request.body, request.body),
  );
  const mostSpecific = (candidates: ReplayEntry[]): ReplayEntry | undefined =>
    candidates.reduce<ReplayEntry | undefined>(
      (best, e) => (best === undefined || specificity(e) > specificity(best) ? e : best),
      undefined,
    );
  const inScenario = activeScenario === null ? [] : matching.filter((e) => e.scenario === activeScenario);
  return mostSpecific(inScenario) ?? mostSpecific(matching.filter((e) => e.scenario === undefined));
}
