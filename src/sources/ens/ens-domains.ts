import type { Address } from 'viem';

/** One name an address holds, as a registrant (registrar token) or as its controller (registry owner). */
export interface EnsDomainRecord {
  name: string;
  registrant: Address | null;
  controller: Address | null;
  /** Unix seconds; null for names without a registrar expiry (most subnames). */
  expiresAt: number | null;
}

/** Where the names held by an address come from: the ENS subgraph (live) or the embedded chains' events (Ethereum, Base). */
export interface EnsDomainsSource {
  /** Unexpired names the address is registrant or controller of, sorted by name. */
  domainsOf(address: Address): Promise<EnsDomainRecord[]>;
}
