import { type Address, formatEther, getAddress, isAddress } from 'viem';
import type { ChainKey } from '../../config/chains.js';
import { CHAINS } from '../../config/chains.js';
import { serviceUnavailable } from '../../errors/api-error.js';
import type { HttpJsonSource } from '../http-json-source.js';
import type { UpstreamClientParams } from '../http-upstream.js';
import { httpUpstream } from '../http-upstream.js';
import { isJsonObject, UnexpectedReplyError } from '../json-reply.js';
import type { SourceClient } from '../source-client.js';
import { UpstreamError } from '../upstream-failure.js';
import { requireServedChain } from './explorer-chains.js';

/** Etherscan serves at most page × offset ≤ 10,000 records of one list. */
export const EXPLORER_MAX_WINDOW = 10_000;

/** A normal transaction of an address, as the service answers it. */
export interface ExplorerTransaction {
  hash: string;
  blockNumber: number;
  /** ISO 8601 */
  timestamp: string;
  from: Address;
  /** null for a contract creation */
  to: Address | null;
  /** The contract a creation made; null otherwise. */
  contractAddress: Address | null;
  /** ETH (decimal string) and wei. */
  value: string;
  valueWei: string;
  /** gasUsed × gasPrice in ETH (decimal string). */
  fee: string;
  status: 'success' | 'failed';
  /** The called function's signature (or 4-byte selector); null for a plain transfer. */
  method: string | null;
  nonce: number;
}

/** A contract's verified source as the explorer knows it. */
export interface VerifiedContract {
  /** The ABI entries as the upstream published them (JSON objects). */
  abi: Record<string, unknown>[];
  contractName: string;
  compilerVersion: string | null;
  /** The explorer marks the contract as a proxy; implementation is where it points. */
  proxy: boolean;
  implementation: Address | null;
}

export interface EtherscanClientParams extends UpstreamClientParams {
  apiKey?: string | undefined;
}

const TX_FRESHNESS_MS = 30_000;
const FIRST_TX_FRESHNESS_MS = 60 * 60_000;
const SOURCE_FRESHNESS_MS = 10 * 60_000;
const NOT_VERIFIED = 'Contract source code not verified';

/**
 * Etherscan's envelope `{status, message, result}`: status "1" is data; status "0" with "No transactions found" /
 * "No records found" is an empty list; a rate limit (in a 200 reply) is retried; any other refusal is a failure.
 */
function unwrapEnvelope(json: unknown, what: string): unknown {
  if (!isJsonObject(json) || typeof json.status !== 'string' || !('result' in json)) {
    throw new UnexpectedReplyError(`${what}: expected {status, message, result}`);
  }
  if (json.status === '1') return json.result;
  const message = typeof json.message === 'string' ? json.message : '';
  const result = typeof json.result === 'string' ? json.result : '';
  if (/^No (transactions|records) found/i.test(message) && Array.isArray(json.result)) return [];
  if (/rate limit/i.test(result))
    throw new UpstreamError(`explorer rate limit reached on ${what}`, { status: 429, retryable: true });
  if (/invalid api key|missing\/invalid api key/i.test(result))
    throw new UpstreamError(`explorer refused the API key on ${what}`, { retryable: false });
  if (result === NOT_VERIFIED) return NOT_VERIFIED;
  throw new UpstreamError(`explorer refused ${what} (${message.slice(0, 40) || 'NOTOK'})`, { retryable: false });
}

const text = (v: unknown, field: string): string => {
  if (typeof v !== 'string') throw new UnexpectedReplyError(`txlist: ${field} is not a string`);
  return v;
};
const integer = (v: unknown, field: string): bigint => {
  const s = text(v, field);
  if (!/^\d+$/.test(s)) throw new UnexpectedReplyError(`txlist: ${field} is not an integer`);
  return BigInt(s);
};
const optionalAddress = (v: unknown): Address | null =>
  typeof v === 'string' && isAddress(v, { strict: false }) ? getAddress(v) : null;

/**
 * One `account/txlist` entry → our transaction.
 * @example mapTransaction({ hash: '0x…', blockNumber: '1', timeStamp: '1700000000', … }).timestamp // '2023-11-14T22:13:20.000Z'
 */
export function mapTransaction(raw: unknown): ExplorerTransaction {
  if (!isJsonObject(raw)) throw new UnexpectedReplyError('txlist: an entry is not an object');
  const from = optionalAddress(raw.from);
  if (!from) throw new UnexpectedReplyError('txlist: from is not an address');
  const gasUsed = integer(raw.gasUsed, 'gasUsed');
  const gasPrice = integer(raw.gasPrice, 'gasPrice');
  const valueWei = integer(raw.value, 'value');
  const functionName = typeof raw.functionName === 'string' && raw.functionName !== '' ? raw.functionName : null;
  const methodId =
    typeof raw.methodId === 'string' && raw.methodId !== '' && raw.methodId !== '0x' ? raw.methodId : null;
  return {
    hash: text(raw.hash, 'hash'),
    blockNumber: Number(integer(raw.blockNumber, 'blockNumber')),
    timestamp: new Date(Number(integer(raw.timeStamp, 'timeStamp')) * 1000).toISOString(),
    from,
    to: optionalAddress(raw.to),
    contractAddress: optionalAddress(raw.contractAddress),
    value: formatEther(valueWei),
    valueWei: valueWei.toString(),
    fee: formatEther(gasUsed * gasPrice),
    status: raw.isError === '1' || raw.txreceipt_status === '0' ? 'failed' : 'success',
    method: functionName ?? methodId,
    nonce: Number(integer(raw.nonce, 'nonce')),
  };
}

/**
 * `account/txlist` reply → transactions.
 * @example mapTxList({ status: '0', message: 'No transactions found', result: [] }) // []
 */
export function mapTxList(json: unknown): ExplorerTransaction[] {
  const result = unwrapEnvelope(json, 'account/txlist');
  if (!Array.isArray(result)) throw new UnexpectedReplyError('account/txlist: result is not a list');
  return result.map(mapTransaction);
}

/**
 * `contract/getsourcecode` reply → the verified contract, or null when the explorer has no verified source.
 * @example mapSourceCode({ status: '1', message: 'OK', result: [{ ABI: 'Contract source code not verified', … }] }) // null
 */
export function mapSourceCode(json: unknown): VerifiedContract | null {
  const result = unwrapEnvelope(json, 'contract/getsourcecode');
  if (result === NOT_VERIFIED) return null;
  const entry = Array.isArray(result) ? result[0] : undefined;
  if (!isJsonObject(entry) || typeof entry.ABI !== 'string')
    throw new UnexpectedReplyError('getsourcecode: result[0].ABI missing');
  if (entry.ABI === NOT_VERIFIED) return null;
  let abi: unknown;
  try {
    abi = JSON.parse(entry.ABI);
  } catch {
    throw new UnexpectedReplyError('getsourcecode: ABI is not JSON');
  }
  if (!Array.isArray(abi) || !abi.every(isJsonObject))
    throw new UnexpectedReplyError('getsourcecode: ABI is not a list of entries');
  return {
    abi: abi,
    contractName: typeof entry.ContractName === 'string' ? entry.ContractName : '',
    compilerVersion:
      typeof entry.CompilerVersion === 'string' && entry.CompilerVersion !== '' ? entry.CompilerVersion : null,
    proxy: entry.Proxy === '1',
    implementation: optionalAddress(entry.Implementation),
  };
}

const chainIdOf = (chain: ChainKey): number => CHAINS.find((c) => c.key === chain)!.id;

/**
 * Etherscan API v2: one endpoint for every chain, chosen by `chainid`; the key travels as `apikey`.
 * @example
 * const etherscan = new EtherscanClient({ baseUrl: 'https://api.etherscan.io', apiKey, mode: 'live', registry, timeoutMs: 5000 })
 * const txs = await etherscan.transactions('ethereum', '0x…', 21) // the 21 most recent
 */
export class EtherscanClient {
  readonly client: SourceClient;
  readonly http: HttpJsonSource;
  private readonly apiKey: string | undefined;

  constructor(p: EtherscanClientParams) {
    this.apiKey = p.apiKey;
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'etherscan',
      kind: 'explorer',
      description: 'Etherscan API v2 (every chain by chainid)',
      freshnessMs: TX_FRESHNESS_MS,
      baseUrl: p.baseUrl.replace(/\/+$/, '').replace(/\/v2\/api$/, ''),
    }));
  }

  private async get<T>(
    chain: ChainKey,
    query: Record<string, string | number>,
    map: (json: unknown) => T,
    freshnessMs: number,
  ): Promise<T> {
    requireServedChain('etherscan', this.client.policy.mode, chain);
    const full = { chainid: chainIdOf(chain), ...query, apikey: this.apiKey };
    // The key stays out of the cache key as it stays out of logs.
    const cacheKey = `${chain}:${Object.entries(query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&')}`;
    // Boxed, so a mapped null (e.g. "not verified") is told apart from the upstream's 404.
    const boxed = await this.http.getMapped('/v2/api', (json) => ({ value: map(json) }), {
      query: full,
      cacheKey,
      freshnessMs,
    });
    // The explorer answers every query on this path; a 404 means we asked the wrong place.
    if (boxed === null) throw serviceUnavailable('etherscan answered 404 on /v2/api');
    return boxed.value;
  }

  /** One page of an address's normal transactions, the first `offset` in `sort` order of blocks. */
  private txlist(
    chain: ChainKey,
    address: Address,
    page: { offset: number; sort: 'asc' | 'desc' },
    freshnessMs: number,
  ): Promise<ExplorerTransaction[]> {
    const query = { module: 'account', action: 'txlist', address: address.toLowerCase() };
    return this.get(chain, { ...query, startblock: 0, endblock: 99_999_999, page: 1, ...page }, mapTxList, freshnessMs);
  }

  /** The `count` most recent normal transactions of an address, newest first (count ≤ 10,000). */
  async transactions(chain: ChainKey, address: Address, count: number): Promise<ExplorerTransaction[]> {
    const txs = await this.txlist(chain, address, { offset: count, sort: 'desc' }, TX_FRESHNESS_MS);
    return txs.slice(0, count);
  }

  /** The first normal transaction of an address, or null when it has none. */
  async firstTransaction(chain: ChainKey, address: Address): Promise<ExplorerTransaction | null> {
    const txs = await this.txlist(chain, address, { offset: 1, sort: 'asc' }, FIRST_TX_FRESHNESS_MS);
    return txs[0] ?? null;
  }

  /** The verified source (ABI, name) of a contract, or null when the explorer has none. */
  contractSource(chain: ChainKey, address: Address): Promise<VerifiedContract | null> {
    return this.get(
      chain,
      { module: 'contract', action: 'getsourcecode', address: address.toLowerCase() },
      mapSourceCode,
      SOURCE_FRESHNESS_MS,
    );
  }
}
