import { type Address, getAddress, isAddress } from 'viem';
import type { HttpJsonSource } from '../http-json-source.js';
import { type HttpUpstreamParams, httpUpstream } from '../http-upstream.js';
import type { SourceClient } from '../source-client.js';
import type { EnsDomainRecord, EnsDomainsSource } from './ens-domains.js';
import {
  type EnsRecordKeys,
  type EnsRecordKeysSource,
  NO_RECORD_KEYS,
  RecordKeysCollector,
} from './ens-record-keys.js';

/** The most names one address's list holds; the subgraph's own page limit. */
export const MAX_SUBGRAPH_DOMAINS = 1000;
/** docs/api-contract.md#data-freshness: indexed data is minutes behind the chain anyway. */
const DOMAINS_FRESHNESS_MS = 60_000;

/** Names an account is registry owner, registrant or NameWrapper owner of, with their registrar expiry. */
export const DOMAINS_OF_ACCOUNT_QUERY = `query DomainsOfAccount($account: String!, $first: Int!) {
  domains(first: $first, orderBy: name, where: { or: [{ owner: $account }, { registrant: $account }, { wrappedOwner: $account }] }) {
    name
    expiryDate
    owner { id }
    registrant { id }
    wrappedOwner { id }
  }
}`;

/**
 * The records names have, by the subgraph's published schema: a Domain's current `resolver` lists every text key
 * (`texts`) and coin type (`coinTypes`) ever set on it, and its `contentHash`. Sent with its operation name, as
 * GraphQL over HTTP allows, so a recorded reply can be told from the names-by-address one.
 */
export const RECORDS_OF_NAMES_OPERATION = 'RecordsOfNames';
export const RECORDS_OF_NAMES_QUERY = `query ${RECORDS_OF_NAMES_OPERATION}($names: [String!]!) {
  domains(where: { name_in: $names }) {
    name
    resolver { texts coinTypes contentHash }
  }
}`;

export class UnexpectedSubgraphReplyError extends Error {
  override name = 'UnexpectedSubgraphReplyError';
}

const accountId = (value: unknown): Address | null => {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && isAddress(id, { strict: false }) ? getAddress(id) : null;
};

/**
 * A `domains` reply of the ENS subgraph → our records: names with an expiry in the past are left out, the
 * NameWrapper owner stands in for the registry owner of a wrapped name, labels the subgraph cannot name are skipped.
 * @example mapDomainsReply({ data: { domains: [{ name: 'vitalik.eth', expiryDate: '2043…', owner: { id: '0x…' } }] } }, now)
 */
export function mapDomainsReply(json: unknown, nowSeconds: number): EnsDomainRecord[] {
  const records: EnsDomainRecord[] = [];
  for (const d of replyDomains(json)) {
    if (typeof d.name !== 'string' || d.name.includes('[')) continue;
    const expiresAt = typeof d.expiryDate === 'string' && /^\d+$/.test(d.expiryDate) ? Number(d.expiryDate) : null;
    if (expiresAt !== null && expiresAt <= nowSeconds) continue;
    records.push({
      name: d.name,
      registrant: accountId(d.registrant),
      controller: accountId(d.wrappedOwner) ?? accountId(d.owner),
      expiresAt,
    });
  }
  return records.sort((a, b) => a.name.localeCompare(b.name));
}

/** The `data.domains` list of a subgraph reply; GraphQL errors and other shapes throw. */
function replyDomains(json: unknown): Record<string, unknown>[] {
  if (!json || typeof json !== 'object') throw new UnexpectedSubgraphReplyError('reply is not an object');
  const { data, errors } = json as { data?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) throw new UnexpectedSubgraphReplyError('GraphQL errors in reply');
  const domains = data && typeof data === 'object' ? (data as { domains?: unknown }).domains : undefined;
  if (!Array.isArray(domains)) throw new UnexpectedSubgraphReplyError('reply has no data.domains list');
  for (const domain of domains)
    if (!domain || typeof domain !== 'object') throw new UnexpectedSubgraphReplyError('a domain is not an object');
  return domains as Record<string, unknown>[];
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * A `RecordsOfNames` reply → the record keys of each name asked, in order: a name the subgraph does not know, or one
 * without a resolver, has none; a content hash counts when set (not null, not empty bytes).
 * @example mapRecordsReply({ data: { domains: [{ name: 'vitalik.eth', resolver: { texts: ['url'], coinTypes: ['60'], contentHash: '0xe3…' } }] } }, ['vitalik.eth'])
 */
export function mapRecordsReply(json: unknown, names: readonly string[]): EnsRecordKeys[] {
  const byName = new Map<string, EnsRecordKeys>();
  for (const domain of replyDomains(json)) {
    if (typeof domain.name !== 'string') continue;
    const resolver = domain.resolver;
    if (resolver !== null && typeof resolver !== 'object')
      throw new UnexpectedSubgraphReplyError('a domain has no resolver field');
    const keys = new RecordKeysCollector();
    if (resolver) {
      const r = resolver as Record<string, unknown>;
      for (const key of stringList(r.texts)) keys.text(key);
      for (const coinType of stringList(r.coinTypes)) if (/^\d+$/.test(coinType)) keys.coin(Number(coinType));
      if (typeof r.contentHash === 'string' && r.contentHash !== '0x') keys.contentHash();
    }
    byName.set(domain.name, keys.keys());
  }
  return names.map((name) => byName.get(name) ?? NO_RECORD_KEYS);
}

/**
 * The ENS subgraph (The Graph), asked over GraphQL for the names an address holds (one POST per address) and for the
 * records names have (one POST per request's names), cached for a minute. Registered in /api/sources/health as
 * `ens-subgraph`.
 * @example
 * const subgraph = new EnsSubgraphClient({ url: 'https://gateway.thegraph.com/api/<key>/subgraphs/id/5XqP…', mode: 'live', registry, timeoutMs: 5000 })
 * await subgraph.domainsOf('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045')
 */
export class EnsSubgraphClient implements EnsDomainsSource, EnsRecordKeysSource {
  readonly client: SourceClient;
  private readonly http: HttpJsonSource;
  private readonly path: string;

  constructor(p: { url: string } & Pick<HttpUpstreamParams, 'mode' | 'registry' | 'timeoutMs' | 'fetch'>) {
    const url = new URL(p.url);
    this.path = url.pathname;
    ({ client: this.client, http: this.http } = httpUpstream({
      ...p,
      name: 'ens-subgraph',
      kind: 'ens',
      description: 'ENS subgraph (The Graph): names by address, and the records a name has',
      freshnessMs: DOMAINS_FRESHNESS_MS,
      baseUrl: url.origin,
    }));
  }

  async domainsOf(address: Address): Promise<EnsDomainRecord[]> {
    const account = address.toLowerCase();
    const records = await this.http.postMapped(
      this.path,
      { query: DOMAINS_OF_ACCOUNT_QUERY, variables: { account, first: MAX_SUBGRAPH_DOMAINS } },
      (json) => mapDomainsReply(json, Math.floor(Date.now() / 1000)),
      { idempotent: true, cacheKey: `domains:${account}`, freshnessMs: DOMAINS_FRESHNESS_MS },
    );
    return records ?? [];
  }

  async recordKeys(names: readonly string[]): Promise<EnsRecordKeys[]> {
    if (names.length === 0) return [];
    const asked = [...new Set(names)];
    const keys = await this.http.postMapped(
      this.path,
      { operationName: RECORDS_OF_NAMES_OPERATION, query: RECORDS_OF_NAMES_QUERY, variables: { names: asked } },
      (json) => mapRecordsReply(json, asked),
      { idempotent: true, cacheKey: `records:${asked.join(',')}`, freshnessMs: DOMAINS_FRESHNESS_MS },
    );
    const byName = new Map(asked.map((name, i) => [name, keys?.[i] ?? NO_RECORD_KEYS]));
    return names.map((name) => byName.get(name) ?? NO_RECORD_KEYS);
  }
}
