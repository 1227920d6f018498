import { namehash } from 'viem';
import type { SourceClient } from '../source-client.js';
import type { EnsRecordKeys, EnsRecordKeysSource } from './ens-record-keys.js';

/** Where the ENS record index keeps each name's keys: the store (Store.nameRecordKeys), shared by every instance. */
export interface RecordKeysIndex {
  nameRecordKeys(nodes: readonly string[]): Promise<EnsRecordKeys[]>;
}

/**
 * The records names have, from the ENS record index a chain's detector keeps (src/webhooks/detectors/ens-record-index.ts):
 * one store read for all the names of a request, no chain call. A record set on chain is listed once the index has
 * read its block (one detector cycle, WEBHOOK_POLL_MS), and one cleared on chain leaves it in the same way.
 * @example await new IndexedRecordKeys({ index: store, source }).recordKeys(['alice.eth'])
 */
export class IndexedRecordKeys implements EnsRecordKeysSource {
  constructor(private readonly p: { index: RecordKeysIndex; source: SourceClient }) {}

  recordKeys(names: readonly string[]): Promise<EnsRecordKeys[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.p.source.load(`record-keys:${names.join(',')}`, () =>
      this.p.index.nameRecordKeys(names.map((name) => namehash(name))),
    );
  }
}
