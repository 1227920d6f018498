import type { Address } from 'viem';
import { CHAINS, type ChainKey } from '../../config/chains.js';
import type { HttpJsonSource } from '../http-json-source.js';
import type { UpstreamClientParams } from '../http-upstream.js';
import { httpUpstream } from '../http-upstream.js';
import { isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import { requireServedChain } from './explorer-chains.js';

/** A contract Sourcify verified: `exact_match` when even the metadata hash matches, `match` otherwise. */
export interface SourcifyContract {
  /** The ABI entries as the upstream published them (JSON objects). */
  abi: Record<string, unknown>[];
  contractName: string;
  match: 'exact_match' | 'match';
}

const SOURCE_FRESHNESS_MS = 10 * 60_000;

/**
 * `GET /v2/contract/{chainId}/{address}?fields=abi,compilation` → the verified contract. (A 404, Sourcify's answer for an
 * unverified address, never reaches this map: the source turns it into null.)
 * @example mapSourcifyContract({ match: 'exact_match', abi: [], compilation: { name: 'USDC' } }).contractName // 'USDC'
 */
export function mapSourcifyContract(json: unknown): SourcifyContract | null {
  if (!isJsonObject(json)) throw new UnexpectedReplyError('sourcify: expected an object');
  if (json.match === null || json.match === undefined) return null;
  if (json.match !== 'exact_match' && json.match !== 'match')
    throw new UnexpectedReplyError('sourcify: unknown match value');
  if (!Array.isArray(json.abi) || !json.abi.every(isJsonObject))
    throw new UnexpectedReplyError('sourcify: abi is not a list of entries');
  const compilation = isJsonObject(json.compilation) ? json.compilation : {};
  return {
    abi: json.abi,
    contractName: typeof compilation.name === 'string' ? compilation.name : '',
    match: json.match,
  };
}

/**
 * Sourcify's API v2 lookup, the open verification repository the ABI route falls back to.
 * @example await new SourcifyClient({ baseUrl: 'https://sourcify.dev/server', mode: 'live', registry, timeoutMs }).contract('ethereum', '0x…')
 */
export class SourcifyClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;

  constructor(p: UpstreamClientParams) {
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'sourcify',
      kind: 'explorer',
      description: 'Sourcify API v2',
      freshnessMs: SOURCE_FRESHNESS_MS,
    }));
  }

  /** The verified contract at an address, or null when Sourcify has none (its 404). */
  async contract(chain: ChainKey, address: Address): Promise<SourcifyContract | null> {
    requireServedChain('sourcify', this.client.policy.mode, chain);
    const chainId = CHAINS.find((c) => c.key === chain)!.id;
    return this.http.getMapped(`/v2/contract/${chainId}/${address}`, mapSourcifyContract, {
      query: { fields: 'abi,compilation' },
    });
  }
}
