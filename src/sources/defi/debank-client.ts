import type { HttpJsonSource } from '../http-json-source.js';
import { finiteNumber, isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import type { DefiPosition, PositionToken } from './defi-records.js';
import { type DefiUpstreamParams, defiUpstream, stringOrNull } from './defi-upstream.js';

const WALLET = /^0x[0-9a-f]{40}$/;

function mapTokens(list: unknown): PositionToken[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((t): PositionToken[] => {
    if (!isJsonObject(t)) return [];
    const amount = finiteNumber(t.amount);
    const address = stringOrNull(t.id);
    if (amount === null || address === null) return [];
    const priceUsd = finiteNumber(t.price);
    return [
      {
        symbol: stringOrNull(t.optimized_symbol) ?? stringOrNull(t.symbol) ?? '',
        address,
        amount,
        priceUsd,
        valueUsd: priceUsd === null ? null : amount * priceUsd,
      },
    ];
  });
}

/**
 * `/v1/user/all_complex_protocol_list` → one position per portfolio item of every protocol, largest net value first.
 * @example mapComplexProtocols([{ id: 'aave3', name: 'Aave V3', chain: 'eth', portfolio_item_list: [...] }])[0].protocol // 'Aave V3'
 */
export function mapComplexProtocols(json: unknown): DefiPosition[] {
  if (!Array.isArray(json)) throw new UnexpectedReplyError('all_complex_protocol_list: expected a list of protocols');
  const positions: DefiPosition[] = [];
  for (const protocol of json) {
    if (!isJsonObject(protocol) || !Array.isArray(protocol.portfolio_item_list)) continue;
    const protocolId = stringOrNull(protocol.id);
    const chain = stringOrNull(protocol.chain);
    if (protocolId === null || chain === null) continue;
    for (const item of protocol.portfolio_item_list) {
      if (!isJsonObject(item) || !isJsonObject(item.stats)) continue;
      const detail = isJsonObject(item.detail) ? item.detail : {};
      positions.push({
        protocolId,
        protocol: stringOrNull(protocol.name) ?? protocolId,
        chain,
        kind: stringOrNull(item.name) ?? 'Position',
        assetUsd: finiteNumber(item.stats.asset_usd_value) ?? 0,
        debtUsd: finiteNumber(item.stats.debt_usd_value) ?? 0,
        netUsd: finiteNumber(item.stats.net_usd_value) ?? 0,
        supplied: mapTokens(detail.supply_token_list),
        borrowed: mapTokens(detail.borrow_token_list),
        rewards: mapTokens(detail.reward_token_list),
        healthRate: finiteNumber(detail.health_rate),
        updatedAt: finiteNumber(item.update_at),
      });
    }
  }
  return positions.sort((a, b) => b.netUsd - a.netUsd);
}

/**
 * The headers DeBank Cloud reads its key from.
 * @example debankHeaders('k') // { AccessKey: 'k' }
 */
export const debankHeaders = (accessKey: string | undefined): Record<string, string> =>
  accessKey === undefined ? {} : { AccessKey: accessKey };

/**
 * DeBank Cloud OpenAPI (pro-openapi.debank.com, `AccessKey` header): a wallet's positions in every protocol DeBank
 * tracks, on every chain, in one request. DefiLlama publishes no per-wallet positions.
 * @example
 * const debank = new DebankClient({ baseUrl: 'https://pro-openapi.debank.com', headers: { AccessKey: key }, mode: 'live', registry, timeoutMs: 5000 })
 * const positions = await debank.positions('0xd8da6bf26964af9d7eed9e03e53415d37aa96045')
 */
export class DebankClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: DefiUpstreamParams) {
    ({ client: this.client, http: this.http } = defiUpstream('debank', 'DeBank Cloud OpenAPI (wallet positions)', p));
  }

  /** Positions of a wallet (lower-case 0x address); [] for a wallet with none. */
  async positions(wallet: string): Promise<DefiPosition[]> {
    if (!WALLET.test(wallet)) throw new TypeError(`not a lower-case 0x address: ${wallet}`);
    const reply = await this.http.getMapped('/v1/user/all_complex_protocol_list', mapComplexProtocols, {
      query: { id: wallet },
    });
    return reply ?? [];
  }
}
