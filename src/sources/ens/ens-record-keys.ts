import type { Hex } from 'viem';

/** Which records a name has set on its resolver: the keys only; the values are read through the Universal Resolver. */
export interface EnsRecordKeys {
  /** ENSIP-5 text keys, in the order first set. */
  textKeys: string[];
  /** ENSIP-9/11 coin types, in the order first set. */
  coinTypes: number[];
  /** Whether a content hash (ENSIP-7) was ever set. */
  contentHash: boolean;
}

/** No record at all: an unknown name, or one without a resolver. */
export const NO_RECORD_KEYS: EnsRecordKeys = { textKeys: [], coinTypes: [], contentHash: false };

/**
 * Most text keys, and most coin types, a name's list names: the values of all of them are read for every name of a
 * request in one Universal Resolver call, so 100 names stay one `eth_call` of a few thousand calls.
 */
export const MAX_LISTED_TEXT_KEYS = 50;
export const MAX_LISTED_COIN_TYPES = 20;

/** Where the list of records a name has comes from: the ENS subgraph (live) or the embedded chain's resolver logs. */
export interface EnsRecordKeysSource {
  /** The record keys of each name, in the order asked (NO_RECORD_KEYS for a name the source does not know). */
  recordKeys(names: readonly string[]): Promise<EnsRecordKeys[]>;
}

/** Whether an address record's bytes say "no address": none at all, or the zero address of an EVM chain. */
export function clearedAddress(coinType: bigint, bytes: Hex): boolean {
  if (bytes === '0x') return true;
  const evm = coinType === 60n || coinType >= 0x8000_0000n;
  return evm && /^0x(00)+$/.test(bytes);
}

/** Keys gathered in order, capped at the listed maximums: the list a source answers. */
export class RecordKeysCollector {
  private readonly texts = new Set<string>();
  private readonly coins = new Set<number>();
  private hasContentHash = false;

  text(key: string): void {
    if (this.texts.size < MAX_LISTED_TEXT_KEYS) this.texts.add(key);
  }

  coin(coinType: number): void {
    if (Number.isSafeInteger(coinType) && coinType >= 0 && this.coins.size < MAX_LISTED_COIN_TYPES)
      this.coins.add(coinType);
  }

  contentHash(): void {
    this.hasContentHash = true;
  }

  keys(): EnsRecordKeys {
    return { textKeys: [...this.texts], coinTypes: [...this.coins], contentHash: this.hasContentHash };
  }
}
