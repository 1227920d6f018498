import type { Address } from 'viem';
import type { ChainKey } from '../../config/chains.js';
import { serviceUnavailable } from '../../errors/api-error.js';
import type { AskedAt } from '../rpc/asked-at.js';
import { type BaseNamesReader, isBaseName } from './base-names-reader.js';
import type { EnsChainReader, EnsProfileRecord, ProfileExtras } from './ens-chain-reader.js';
import type { NftAvatarRead, NftAvatarRef } from './nft-avatar.js';

/** A forward-checked primary name and the chain whose reverse record set it. */
export interface EnsPrimaryNameRecord {
  name: string;
  /** ethereum: ENSIP-19 `addr.reverse` on Ethereum · base: Basenames' `80002105.reverse` on Base. */
  chain: Extract<ChainKey, 'ethereum' | 'base'>;
}

/**
 * ENS reads the subgraphs make, whichever chain answers them. `askedAt`, on every read: when the request the read
 * is made for arrived (its context's `askedAt`): the read is exact for the head block as of then
 * (src/sources/rpc/block-reads.ts); undefined for a read made for no request.
 */
export interface EnsReader {
  addresses(names: readonly string[], askedAt?: AskedAt): Promise<(Address | null)[]>;
  primaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(EnsPrimaryNameRecord | null)[]>;
  /** Base primary names alone (Basenames' `80002105.reverse` on Base, forward-checked there); 503 without Base. */
  basePrimaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(string | null)[]>;
  texts(names: readonly string[], key: string, askedAt?: AskedAt): Promise<(string | null)[]>;
  /** Profiles with the extra text keys and coin types asked, read with the rest in one call per chain. */
  profiles(names: readonly string[], extras?: ProfileExtras, askedAt?: AskedAt): Promise<(EnsProfileRecord | null)[]>;
  /** NFT avatars (ENSIP-12): owner check and token URI, read on Ethereum. */
  nftAvatars(asks: readonly { ref: NftAvatarRef; owner: Address }[], askedAt?: AskedAt): Promise<NftAvatarRead[]>;
}

/**
 * Sends each name to the chain that holds it: names under base.eth to Base (when a Base reader exists), the rest to
 * Ethereum. A batch mixing both is one read on each chain, run side by side. Reverse lookups ask both chains side by
 * side and prefer Ethereum's primary name.
 * @example
 * const reader = new ChainRoutedEnsReader({ ethereum, base })
 * await reader.addresses(['alice.eth', 'demo.base.eth']) // one eth_call on Ethereum, one on Base
 */
export class ChainRoutedEnsReader implements EnsReader {
  constructor(private readonly p: { ethereum: EnsChainReader | undefined; base: BaseNamesReader | undefined }) {}

  private get ethereum(): EnsChainReader {
    if (!this.p.ethereum)
      throw serviceUnavailable('ENS is unavailable: no Ethereum RPC with ENS contracts is configured');
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

  addresses(names: readonly string[], askedAt?: AskedAt): Promise<(Address | null)[]> {
    return this.route(
      names,
      (r, n) => r.addresses(n, askedAt),
      (r, n) => r.addresses(n, askedAt),
    );
  }

  /**
   * The Ethereum primary name (ENSIP-19, coin type 60) where one holds, else the Base one (Basenames, coin type
   * 0x80002105): an address's mainnet identity is the one ENS clients show everywhere, its Base name the fallback.
   * Both are forward-checked; both chains are asked at once, each in one batch for all the addresses. Base failing
   * matters only for addresses without an Ethereum name (they fail, rather than answer a wrong 404).
   */
  async primaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(EnsPrimaryNameRecord | null)[]> {
    const base = this.p.base;
    const [onEthereum, onBase] = await Promise.all([
      this.ethereum.primaryNames(addresses, askedAt),
      base
        ? base.primaryNames(addresses, askedAt).then(
            (names) => ({ names }),
            (error: unknown) => ({ error }),
          )
        : { names: addresses.map(() => null) },
    ]);
    if ('error' in onBase && onEthereum.some((name) => name === null)) throw onBase.error;
    return addresses.map((_, i) => {
      const ethereumName = onEthereum[i];
      if (ethereumName) return { name: ethereumName, chain: 'ethereum' };
      const baseName = 'names' in onBase ? onBase.names[i] : null;
      return baseName ? { name: baseName, chain: 'base' } : null;
    });
  }

  basePrimaryNames(addresses: readonly Address[], askedAt?: AskedAt): Promise<(string | null)[]> {
    if (!this.p.base) throw serviceUnavailable('Base names are unavailable: no Base RPC with Basenames is configured');
    return this.p.base.primaryNames(addresses, askedAt);
  }

  texts(names: readonly string[], key: string, askedAt?: AskedAt): Promise<(string | null)[]> {
    return this.route(
      names,
      (r, n) => r.texts(n, key, askedAt),
      (r, n) => r.texts(n, key, askedAt),
    );
  }

  nftAvatars(asks: readonly { ref: NftAvatarRef; owner: Address }[], askedAt?: AskedAt): Promise<NftAvatarRead[]> {
    return this.ethereum.nftAvatars(asks, askedAt);
  }

  profiles(names: readonly string[], extras?: ProfileExtras, askedAt?: AskedAt): Promise<(EnsProfileRecord | null)[]> {
    return this.route(
      names,
      (r, n) => r.profiles(n, extras, askedAt),
      (r, n) => r.profiles(n, extras, askedAt),
    );
  }
}
