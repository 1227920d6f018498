import { type Hex, labelhash, namehash } from 'viem';

/**
 * What the ENS detector knows about names: the registry's and resolvers' logs carry only node hashes, so names come
 * from the registrar's NameRegistered logs (which carry the label) and from the exact names webhooks filter on; expiries
 * from NameRegistered and NameRenewed. Derived from the chain alone, so every instance can rebuild it.
 */
export class EnsNameBook {
  private readonly names = new Map<Hex, string>();
  private readonly labels = new Map<bigint, string>();
  /** name → expiry, Unix seconds. */
  readonly expiries = new Map<string, number>();

  constructor(private readonly parent: string) {}

  /** A registrar label was registered (with its expiry) or seen. */
  learnLabel(label: string, expires?: number): void {
    const name = `${label}.${this.parent}`;
    this.labels.set(BigInt(labelhash(label)), label);
    this.names.set(namehash(name), name);
    if (expires !== undefined) this.expiries.set(name, expires);
  }

  /** A renewal of the registrar token `id`. */
  renewed(id: bigint, expires: number): void {
    const label = this.labels.get(id);
    if (label !== undefined) this.expiries.set(`${label}.${this.parent}`, expires);
  }

  /** A name known some other way (a webhook's exact filter). */
  learnName(name: string): void {
    this.names.set(namehash(name), name);
    const parentSuffix = `.${this.parent}`;
    const label = name.slice(0, -parentSuffix.length);
    if (name.endsWith(parentSuffix) && !label.includes('.')) this.labels.set(BigInt(labelhash(label)), label);
  }

  nameOf(node: Hex): string | null {
    return this.names.get(node) ?? null;
  }

  /** The name of the registrar token `id` (labelhash), if its label is known. */
  nameOfToken(id: bigint): string | null {
    const label = this.labels.get(id);
    return label === undefined ? null : `${label}.${this.parent}`;
  }
}
