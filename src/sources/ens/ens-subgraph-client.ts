import { type Address, getAddress, isAddress } from 'viem';
import type { HttpJsonSource } from '../http-json-source.js';
import { type HttpUpstreamParams, httpUpstream } from '../http-upstream.js';
import type { SourceClient } from '../source-client.js';
import type { EnsDomainRecord, EnsDomainsSource } from './ens-domains.js';

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
  if (!json || typeof json !== 'object') throw new UnexpectedSubgraphReplyError('reply is not an object');
  const { data, errors } = json as { data?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) throw new UnexpectedSubgraphReplyError('GraphQL errors in reply');
  const domains = data && typeof data === 'object' ? (data as { domains?: unknown }).domains : undefined;
  if (!Array.isArray(domains)) throw new UnexpectedSubgraphReplyError('reply has no data.domains list');
  const records: EnsDomainRecord[] = [];
  for (const domain of domains) {
    if (!domain || typeof domain !== 'object') throw new UnexpectedSubgraphReplyError('a domain is not an object');
    const d = domain as Record<string, unknown>;
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

/**
 * The ENS subgraph (The Graph), asked over GraphQL for the names an address holds: one POST per address,
 * cached for a minute. Registered in /api/sources/health as `ens-subgraph`.
 * @example
 * const subgraph = new EnsSubgraphClient({ url: 'https://gateway.thegraph.com/api/<key>/subgraphs/id/5XqP…', mode: 'live', registry, timeoutMs: 5000 })
 * await subgraph.domainsOf('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045')
 */
export class EnsSubgraphClient implements EnsDomainsSource {
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
      description: 'ENS subgraph (The Graph): names by address',
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
}
