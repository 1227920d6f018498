import type { Address } from 'viem';
import type { EnsDomainRecord, EnsDomainsSource } from './ens-domains.js';

/**
 * Names by address from several sources at once (Ethereum's names and Base's), asked side by side and merged into
 * one list sorted by name; a name two sources both list is kept once (the first source's record).
 * @example await new MergedEnsDomains([ethereumNames, baseNames]).domainsOf('0x7099…79C8') // [alice.base.eth, alice.eth]
 */
export class MergedEnsDomains implements EnsDomainsSource {
  constructor(private readonly sources: readonly EnsDomainsSource[]) {}

  async domainsOf(address: Address): Promise<EnsDomainRecord[]> {
    const lists = await Promise.all(this.sources.map((source) => source.domainsOf(address)));
    const byName = new Map<string, EnsDomainRecord>();
    for (const record of lists.flat()) if (!byName.has(record.name)) byName.set(record.name, record);
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
