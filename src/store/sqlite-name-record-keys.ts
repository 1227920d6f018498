import type Database from 'better-sqlite3';
import { checkedRemoval, checkedUpdate, type IndexedKey, indexNode, keysOfRows } from './name-record-keys.js';
import type { NameRecordKeys, NameRecordKeysRemoval, NameRecordKeysUpdate } from './store.js';

/**
 * The ENS record index in SQLite (table ens_record_keys): one transaction per update or removal, bounded per name and
 * kind (a removed key frees its place: the bound counts the rows held).
 */
export class SqliteNameRecordKeys {
  private readonly insert;
  private readonly delete;
  private readonly select;

  constructor(private readonly db: Database.Database) {
    // Added once (the key is the primary key), after the name's last key, while the name holds fewer than `limit`.
    this.insert = db.prepare(`
      INSERT OR IGNORE INTO ens_record_keys (node, kind, key, seq)
      SELECT @node, @kind, @key, coalesce((SELECT max(seq) FROM ens_record_keys WHERE node = @node), 0) + 1
      WHERE (SELECT count(*) FROM ens_record_keys WHERE node = @node AND kind = @kind) < @limit`);
    this.delete = db.prepare('DELETE FROM ens_record_keys WHERE node = @node AND kind = @kind AND key = @key');
    this.select = db.prepare<[string], IndexedKey>('SELECT kind, key, seq FROM ens_record_keys WHERE node = ?');
  }

  add(raw: NameRecordKeysUpdate): void {
    const update = checkedUpdate(raw);
    const { node, limits } = update;
    this.db
      .transaction(() => {
        for (const key of update.texts) this.insert.run({ node, kind: 'text', key, limit: limits.texts });
        for (const coin of update.coinTypes)
          this.insert.run({ node, kind: 'coin', key: String(coin), limit: limits.coinTypes });
        if (update.contenthash) this.insert.run({ node, kind: 'contenthash', key: '', limit: 1 });
      })
      .immediate();
  }

  remove(raw: NameRecordKeysRemoval): void {
    const removal = checkedRemoval(raw);
    const { node } = removal;
    this.db
      .transaction(() => {
        for (const key of removal.texts) this.delete.run({ node, kind: 'text', key });
        for (const coin of removal.coinTypes) this.delete.run({ node, kind: 'coin', key: String(coin) });
        if (removal.contenthash) this.delete.run({ node, kind: 'contenthash', key: '' });
      })
      .immediate();
  }

  read(nodes: readonly string[]): NameRecordKeys[] {
    return nodes.map((node) => keysOfRows(this.select.all(indexNode(node))));
  }
}
