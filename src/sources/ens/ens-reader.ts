import type { Address } from 'viem';
import { serviceUnavailable } from '../../errors/api-error.js';
import { type BaseNamesReader, isBaseName } from './base-names-reader.js';
import type { EnsChainReader, EnsProfileRecord } from './ens-chain-reader.js';

/** ENS reads the subgraphs make, whichever chain answers them. */
export interface EnsReader {
  addresses(names: readonly string[]): Promise<(Address | null)[]>;
  primaryNames(addresses: readonly Address[]): Promise<(string | null)[]>;
  texts(names: readonly string[], key: string): Promise<(string | null)[]>;
  profiles(names: readonly string[]): Promise<(EnsProfileRecord | null)[]>;
}

/**
 * Sends each name to the chain that holds it: names under base.eth to Base (when a Base reader exists), the rest, and
 * every reverse lookup, to Ethereum. A batch mixing both is one read on each chain, run side by side.
 * @example
 * const reader = new ChainRoutedEnsReader({ ethereum, base })
 * await reader.addresses(['alice.eth', 'demo.base.eth']) // one eth_call on Ethereum, one on Base
 */
export class ChainRoutedEnsReader implements EnsReader {
  constructor(private readonly p: { ethereum: EnsChainReader | undefined; base: BaseNamesReader | undefined }) {}

  private get ethereum(): EnsChainReader {
    if (!this.p.ethereum) throw serviceUnavailable('ENS is unavailable: no Ethereum RPC with ENS contracts is configured');
    return this.p.ethereum;
  }

  private async route<T>(
    names: readonly string[],
    onEthereum: (reader: EnsChainReader, names: string[]) => Promise<T[]>,
    onBase: (reader: BaseNamesReader, names: string[]) => Promise<T[]>,
  ): Promise<T[]> {
    const base = this.p.base;
    const toBase = names.map((name) => base !== undefined && isBaseName(name));
    const baseNames = names.filter((_, i) => toBase[i]);
    const ethNames = names.filter((_, i) => !toBase[i]);
    const [fromBase, fromEthereum] = await Promise.all([
      baseNames.length > 0 ? onBase(base!, baseNames) : [],
      ethNames.length > 0 ? onEthereum(this.ethereum, ethNames) : [],
    ]);
    let b = 0;
    let e = 0;
    return toBase.map((onB) => (onB ? fromBase[b++]! : fromEthereum[e++]!));
  }

  addresses(names: readonly string[]): Promise<(Address | null)[]> {
    return this.route(names, (r, n) => r.addresses(n), (r, n) => r.addresses(n));
  }

  /** Primary names are Ethereum's (ENSIP-19, coin type 60); Base's own reverse records are not read. */
  primaryNames(addresses: readonly Address[]): Promise<(string | null)[]> {
    return this.ethereum.primaryNames(addresses);
  }

  texts(names: readonly string[], key: string): Promise<(string | null)[]> {
    return this.route(names, (r, n) => r.texts(n, key), (r, n) => r.texts(n, key));
  }

  profiles(names: readonly string[]): Promise<(EnsProfileRecord | null)[]> {
    return this.route(names, (r, n) => r.profiles(n), (r, n) => r.profiles(n));
  }
}
