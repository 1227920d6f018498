import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import type { HackRecord, RaiseRecord, TokenUnlock } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringList, stringOrNull } from './defi-upstream.js';

/**
 * `/api/emissions` → each token's next scheduled unlock. Tokens without a next event, or whose next event unlocks
 * nothing, are left out.
 * @example mapNextUnlocks([{ name: 'Arbitrum', gecko_id: 'arbitrum', nextEvent: { date: 1805155200, toUnlock: 92650000 } }])[0].tokens // 92650000
 */
export function mapNextUnlocks(json: unknown): TokenUnlock[] {
  if (!Array.isArray(json)) throw new UnexpectedReplyError('/api/emissions: expected a list of tokens');
  return json.flatMap((t): TokenUnlock[] => {
    if (!isJsonObject(t) || !isJsonObject(t.nextEvent)) return [];
    const name = stringOrNull(t.name);
    const date = finiteNumber(t.nextEvent.date);
    const tokens = finiteNumber(t.nextEvent.toUnlock);
    if (name === null || date === null || tokens === null || tokens <= 0) return [];
    return [
      {
        name,
        geckoId: stringOrNull(t.gecko_id),
        // Some entries carry milliseconds; DefiLlama documents seconds.
        date: date > 1e12 ? Math.floor(date / 1000) : date,
        tokens,
        circulatingSupply: finiteNumber(t.circSupply),
        maxSupply: finiteNumber(t.maxSupply),
        mcapUsd: finiteNumber(t.mcap),
      },
    ];
  });
}

/**
 * DefiLlama's dated events (hacks, raises), newest first: a row without a numeric `date` (Unix seconds) and a
 * `name` is left out, the others are mapped by `map`.
 * @example datedEvents([{ date: 1, name: 'a' }, { name: 'b' }, { date: 2, name: 'c' }], (_, date, name) => ({ date, name })) // [{ date: 2, name: 'c' }, { date: 1, name: 'a' }]
 */
function datedEvents<T extends { date: number }>(
  rows: unknown[],
  map: (row: Record<string, unknown>, date: number, name: string) => T,
): T[] {
  return rows
    .flatMap((row): T[] => {
      if (!isJsonObject(row)) return [];
      const date = finiteNumber(row.date);
      const name = stringOrNull(row.name);
      return date === null || name === null ? [] : [map(row, date, name)];
    })
    .sort((a, b) => b.date - a.date);
}

/**
 * `/api/hacks` → exploits, newest first; the chains a hack hit are in its `chain` list.
 * @example mapHacks([{ date: 1679011200, name: 'Euler', amount: 197000000, chain: ['Ethereum'] }])[0].amountUsd // 197000000
 */
export function mapHacks(json: unknown): HackRecord[] {
  if (!Array.isArray(json)) throw new UnexpectedReplyError('/api/hacks: expected a list of hacks');
  return datedEvents(json, (h, date, name) => ({
    date,
    name,
    amountUsd: finiteNumber(h.amount),
    chains: stringList(h.chain),
    classification: stringOrNull(h.classification),
    technique: stringOrNull(h.technique),
    returnedUsd: finiteNumber(h.returnedFunds),
    bridgeHack: h.bridgeHack === true,
    source: stringOrNull(h.source),
  }));
}

/** DefiLlama gives raise amounts and valuations in millions of USD; rounded to whole dollars. */
const millionsToUsd = (value: unknown): number | null => {
  const millions = finiteNumber(value);
  return millions === null ? null : Math.round(millions * 1_000_000);
};

/**
 * `/api/raises` → funding rounds in USD, newest first.
 * @example mapRaises({ raises: [{ date: 1709251200, name: 'EigenLayer', amount: 100 }] })[0].amountUsd // 100000000
 */
export function mapRaises(json: unknown): RaiseRecord[] {
  if (!isJsonObject(json) || !Array.isArray(json.raises))
    throw new UnexpectedReplyError('/api/raises: expected { raises: [...] }');
  return datedEvents(json.raises, (r, date, name) => ({
    date,
    name,
    amountUsd: millionsToUsd(r.amount),
    chains: stringList(r.chains),
    round: stringOrNull(r.round),
    sector: stringOrNull(r.sector),
    leadInvestors: stringList(r.leadInvestors),
    otherInvestors: stringList(r.otherInvestors),
    valuationUsd: millionsToUsd(r.valuation),
    source: stringOrNull(r.source),
  }));
}

/**
 * DefiLlama's pro API (`pro-api.llama.fi/<key>/api/…`): token unlock schedules, hacks and raises, which DefiLlama
 * serves only there (its free contract has none of them). The key travels in the base URL, which never reaches a log
 * or an error message.
 * @example
 * const pro = new DefiLlamaProClient({ baseUrl: `https://pro-api.llama.fi/${key}`, mode: 'live', registry, timeoutMs: 5000 })
 * const next = await pro.nextUnlocks()
 */
export class DefiLlamaProClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream(
      'defillama-pro',
      'DefiLlama pro API (unlocks, hacks, raises)',
      p,
    ));
  }

  async nextUnlocks(): Promise<TokenUnlock[]> {
    return (await this.http.getMapped('/api/emissions', mapNextUnlocks)) ?? [];
  }

  async hacks(): Promise<HackRecord[]> {
    return (await this.http.getMapped('/api/hacks', mapHacks)) ?? [];
  }

  async raises(): Promise<RaiseRecord[]> {
    return (await this.http.getMapped('/api/raises', mapRaises)) ?? [];
  }
}
