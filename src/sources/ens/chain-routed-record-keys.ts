import { isBaseName } from './base-names-reader.js';
import { type EnsRecordKeys, type EnsRecordKeysSource, NO_RECORD_KEYS } from './ens-record-keys.js';

/**
 * Asks each name's own chain for its records: names under base.eth the Base source (when there is one; else they have
 * none listed), the rest Ethereum's; one ask per chain, side by side.
 * @example await new ChainRoutedRecordKeys({ ethereum, base }).recordKeys(['alice.eth', 'demo.base.eth'])
 */
export class ChainRoutedRecordKeys implements EnsRecordKeysSource {
  constructor(private readonly p: { ethereum: EnsRecordKeysSource; base: EnsRecordKeysSource | undefined }) {}

  async recordKeys(names: readonly string[]): Promise<EnsRecordKeys[]> {
    const onBase = names.filter(isBaseName);
    const onEthereum = names.filter((name) => !isBaseName(name));
    const [fromBase, fromEthereum] = await Promise.all([
      this.p.base && onBase.length > 0 ? this.p.base.recordKeys(onBase) : onBase.map(() => NO_RECORD_KEYS),
      onEthereum.length > 0 ? this.p.ethereum.recordKeys(onEthereum) : [],
    ]);
    let b = 0;
    let e = 0;
    return names.map((name) => (isBaseName(name) ? fromBase[b++]! : fromEthereum[e++]!) ?? NO_RECORD_KEYS);
  }
}
