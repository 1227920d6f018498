import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import type { ChainActivity } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringOrNull } from './defi-upstream.js';

/** growthepie publishes once a day; asking more often than every 15 minutes gains nothing. */
const ACTIVITY_FRESHNESS_MS = 15 * 60_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `/v1/fundamentals_7d.json` (rows of {metric_key, origin_key, date, value}) → each chain's latest day with daily
 * active addresses (`daa`), and the distinct addresses of the 7 days ending that day (`aa_last7d`) when reported.
 * @example mapChainActivity([{ metric_key: 'daa', origin_key: 'base', date: '2026-11-20', value: 1237000 }]).get('base')?.dailyActiveAddresses // 1237000
 */
export function mapChainActivity(json: unknown): Map<string, ChainActivity> {
  if (!Array.isArray(json))
    throw new UnexpectedReplyError('fundamentals: expected a list of { metric_key, origin_key, date, value }');
  const daily = new Map<string, { date: string; value: number }>();
  const weekly = new Map<string, number>();
  for (const row of json) {
    if (!isJsonObject(row)) continue;
    const origin = stringOrNull(row.origin_key);
    const date = stringOrNull(row.date);
    const value = finiteNumber(row.value);
    if (origin === null || date === null || !DAY.test(date) || value === null || value < 0) continue;
    if (row.metric_key === 'daa') {
      const known = daily.get(origin);
      if (known === undefined || date > known.date) daily.set(origin, { date, value });
    }
  }
  for (const row of json) {
    if (!isJsonObject(row) || row.metric_key !== 'aa_last7d') continue;
    const origin = stringOrNull(row.origin_key);
    const value = finiteNumber(row.value);
    if (origin !== null && value !== null && value >= 0 && daily.get(origin)?.date === row.date)
      weekly.set(origin, value);
  }
  const activity = new Map<string, ChainActivity>();
  for (const [originKey, { date, value }] of daily) {
    const week = weekly.get(originKey);
    activity.set(originKey, {
      originKey,
      date,
      dailyActiveAddresses: Math.round(value),
      weeklyActiveAddresses: week === undefined ? null : Math.round(week),
    });
  }
  return activity;
}

/**
 * growthepie's public API (api.growthepie.com, no key): daily and 7-day active addresses of Ethereum and its
 * layer 2s, counted from each chain's own transactions.
 * @example
 * const gtp = new GrowthepieClient({ baseUrl: 'https://api.growthepie.com', mode: 'live', registry, timeoutMs: 5000 })
 * (await gtp.chainActivity()).get('base')
 */
export class GrowthepieClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream(
      'growthepie',
      'growthepie fundamentals API',
      p,
      ACTIVITY_FRESHNESS_MS,
    ));
  }

  async chainActivity(): Promise<Map<string, ChainActivity>> {
    return (await this.http.getMapped('/v1/fundamentals_7d.json', mapChainActivity)) ?? new Map();
  }
}
