import { type Address, getAddress, labelhash, namehash, zeroAddress } from 'viem';
import type { ChainRpcClient } from '../rpc/chain-clients.js';
import type { SourceClient } from '../source-client.js';
import { ensRegistryAbi, ethRegistrarAbi } from './ens-contracts.js';
import type { EnsDomainRecord, EnsDomainsSource } from './ens-domains.js';

type MulticallResult = { status: 'success'; result: unknown } | { status: 'failure'; error: unknown };

/** A registrar of names under one parent (.eth on Ethereum, base.eth on Base) and the registry it writes. */
export interface RegistrarOfNames {
  /** The parent the registrar's labels sit under, e.g. 'eth' or 'base.eth'. */
  parent: string;
  registry: Address;
  /** ERC-721, tokenId = labelhash: ownerOf (reverts once expired), NameRegistered (with the label), NameRenewed. */
  registrar: Address;
}

/**
 * Names by address on an embedded chain, from its own events: the registrar's NameRegistered (which carries the
 * label) and NameRenewed logs, then the registry owner and registrar token owner of each name in one multicall.
 * ERC-721 Transfer logs are not needed: `ownerOf` names the token's holder now (and refuses an expired one), and a
 * controller holds no token. Lists the registrar's direct children (the registry's own events carry only label
 * hashes): .eth names on Ethereum, base.eth names on Base.
 * @example await new EnsEventDomains({ client, names: { parent: 'eth', registry, registrar }, source }).domainsOf('0x7099…79C8')
 */
export class EnsEventDomains implements EnsDomainsSource {
  constructor(private readonly p: { client: ChainRpcClient; names: RegistrarOfNames; source: SourceClient }) {}

  domainsOf(address: Address): Promise<EnsDomainRecord[]> {
    const wanted = getAddress(address);
    const { registry, registrar, parent } = this.p.names;
    return this.p.source.load(`domains:${wanted}`, async () => {
      const labels = await this.registeredLabels();
      const names = [...labels.entries()].map(([label, expiresAt]) => ({
        name: `${label}.${parent}`,
        label,
        expiresAt,
      }));
      const reads = names.flatMap(({ name, label }) => [
        { address: registry, abi: ensRegistryAbi, functionName: 'owner', args: [namehash(name)] },
        { address: registrar, abi: ethRegistrarAbi, functionName: 'ownerOf', args: [BigInt(labelhash(label))] },
      ]);
      const results = (await this.p.client.multicall({
        contracts: reads as never,
        allowFailure: true,
        batchSize: 0,
      })) as MulticallResult[];
      const held: EnsDomainRecord[] = [];
      names.forEach(({ name, expiresAt }, i) => {
        const owner = results[2 * i]!;
        const token = results[2 * i + 1]!;
        // ownerOf reverts once a name has expired: an expired name is held by no one.
        if (token.status !== 'success') return;
        const registrant = token.result as Address;
        const controller =
          owner.status === 'success' && owner.result !== zeroAddress ? (owner.result as Address) : null;
        if (registrant !== wanted && controller !== wanted) return;
        held.push({ name, registrant, controller, expiresAt });
      });
      return held.sort((a, b) => a.name.localeCompare(b.name));
    });
  }

  /** label → latest expiry, from the registrar's NameRegistered and NameRenewed logs. */
  private async registeredLabels(): Promise<Map<string, number>> {
    const logs = await this.p.client.getLogs({
      address: this.p.names.registrar,
      events: ethRegistrarAbi.filter((item) => item.type === 'event' && item.name !== 'Transfer'),
      fromBlock: 0n,
      toBlock: 'latest',
    });
    const labelById = new Map<bigint, string>();
    const expiries = new Map<string, number>();
    for (const log of logs) {
      if (log.eventName === 'NameRegistered') {
        const { id, label, expires } = log.args as { id: bigint; label: string; expires: bigint };
        labelById.set(id, label);
        expiries.set(label, Number(expires));
      } else if (log.eventName === 'NameRenewed') {
        const { id, expires } = log.args as { id: bigint; expires: bigint };
        const label = labelById.get(id);
        if (label !== undefined) expiries.set(label, Number(expires));
      }
    }
    return expiries;
  }
}
