import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../prices/price-quotes.js';
import type { SourceClient } from '../source-client.js';
import type { TokenUnlock } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringOrNull } from './defi-upstream.js';

/**
 * `/emissions` → each token's next scheduled unlock. Tokens without a next event, or whose next event unlocks
 * nothing, are left out.
 * @example mapNextUnlocks([{ name: 'Arbitrum', gecko_id: 'arbitrum', nextEvent: { date: 1805155200, toUnlock: 92650000 } }])[0].tokens // 92650000
 */
export function mapNextUnlocks(json: unknown): TokenUnlock[] {
  if (!Array.isArray(json)) throw new UnexpectedReplyError('/emissions: expected a list of tokens');
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
 * DefiLlama's token unlock schedules (pro API, `pro-api.llama.fi/{key}/api/emissions`: the key travels in the
 * base URL, which never reaches a log or an error message).
 * @example
 * const emissions = new DefiLlamaEmissionsClient({ baseUrl: `https://pro-api.llama.fi/${key}/api`, mode: 'live', registry, timeoutMs: 5000 })
 * const next = await emissions.nextUnlocks()
 */
export class DefiLlamaEmissionsClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream('defillama-pro', 'DefiLlama pro API (token unlocks)', p));
  }

  async nextUnlocks(): Promise<TokenUnlock[]> {
    return (await this.http.getMapped('/emissions', mapNextUnlocks)) ?? [];
  }
}
