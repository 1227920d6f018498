import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CounterRow } from './sqlite-quota-counters.js';
import { EXPIRING_TABLES } from './sqlite-schema.js';
import { type CreditResult, DEBIT_RECEIPT_TTL_MS, type DebitRefund, type DebitResult } from './store.js';
import { ApiKeyNotFoundError } from './store-errors.js';

/** A debit as the SQLite transaction takes it. */
export interface SqliteDebit {
  keyId: string;
  amount: number;
  id: string | undefined;
  now: number;
}

/** A row of api_keys. */
export interface ApiKeyRow {
  id: string;
  wallet: string;
  name: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  daily_limit: number;
  minute_limit: number;
  credits: number;
}

/** A row of subnames. */
export interface SubnameRow {
  parent: string;
  label: string;
  owner: string;
  records: string;
  created_at: number;
}

/** A row of siwe_nonces. */
export interface NonceRow {
  nonce: string;
  domain: string;
  uri: string;
  chain_id: number;
  issued_at: number;
  expires_at: number;
}

/** A row of wallets. */
export interface WalletRow {
  address: string;
  first_seen_at: number;
  last_seen_at: number;
}

/**
 * The statements of the store's own tables (slots, SIWE, wallets, API keys, credits, payment nonces, subnames,
 * secrets), prepared once per database.
 * @example const sql = storeStatements(db); sql.keyById.get(id)
 */
export function storeStatements(db: Database.Database) {
  const prepare = <Row = unknown>(source: string) => db.prepare<unknown[], Row>(source);
  return {
    slotsExpire: prepare('DELETE FROM concurrency_slots WHERE key = ? AND expires_at <= ?'),
    slotsCount: prepare<{ n: number }>('SELECT count(*) AS n FROM concurrency_slots WHERE key = ?'),
    slotInsert: prepare('INSERT INTO concurrency_slots (key, token, expires_at) VALUES (?, ?, ?)'),
    slotDelete: prepare('DELETE FROM concurrency_slots WHERE key = ? AND token = ?'),
    noncePut: prepare(
      `INSERT INTO siwe_nonces (nonce, domain, uri, chain_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (nonce) DO UPDATE SET domain = excluded.domain, uri = excluded.uri, chain_id = excluded.chain_id,
         issued_at = excluded.issued_at, expires_at = excluded.expires_at`,
    ),
    nonceTake: prepare<NonceRow>('DELETE FROM siwe_nonces WHERE nonce = ? RETURNING *'),
    noncePeek: prepare<NonceRow>('SELECT * FROM siwe_nonces WHERE nonce = ? AND expires_at > ?'),
    sessionOpen: prepare(
      `INSERT INTO siwe_sessions (session_id, token_id, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET token_id = excluded.token_id, expires_at = excluded.expires_at`,
    ),
    // One statement: the compare (current token, still live) and the set are atomic across connections.
    sessionRefresh: prepare(
      `UPDATE siwe_sessions SET token_id = ?, expires_at = ?
       WHERE session_id = ? AND token_id = ? AND expires_at > ?`,
    ),
    sessionEnd: prepare('DELETE FROM siwe_sessions WHERE session_id = ?'),
    sessionCurrent: prepare<{ token_id: string }>(
      'SELECT token_id FROM siwe_sessions WHERE session_id = ? AND expires_at > ?',
    ),
    walletTouch: prepare<WalletRow>(
      `INSERT INTO wallets (address, first_seen_at, last_seen_at) VALUES (?, ?, ?)
       ON CONFLICT (address) DO UPDATE SET last_seen_at = excluded.last_seen_at RETURNING *`,
    ),
    walletGet: prepare<WalletRow>('SELECT * FROM wallets WHERE address = ?'),
    keyInsert: prepare<ApiKeyRow>(
      `INSERT INTO api_keys (id, wallet, name, key_hash, prefix, created_at, last_used_at, daily_limit, minute_limit, credits)
       VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 0) RETURNING *`,
    ),
    keyByHash: prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    keyById: prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    keysByWallet: prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE wallet = ? ORDER BY created_at, id'),
    keyRotate: prepare<ApiKeyRow>(
      'UPDATE api_keys SET key_hash = ?, prefix = ? WHERE id = ? AND wallet = ? RETURNING *',
    ),
    keyDelete: prepare('DELETE FROM api_keys WHERE id = ? AND wallet = ?'),
    keyTouch: prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    creditsGet: prepare<{ credits: number }>('SELECT credits FROM api_keys WHERE id = ?'),
    creditsAdd: prepare<{ credits: number }>(
      'UPDATE api_keys SET credits = credits + ? WHERE id = ? RETURNING credits',
    ),
    creditsDebit: prepare<{ credits: number }>(
      'UPDATE api_keys SET credits = credits - ? WHERE id = ? AND credits >= ? RETURNING credits',
    ),
    counterWrite: prepare(
      `INSERT INTO quota_counters (key, window_ms, window, count, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key, window_ms, window) DO UPDATE SET count = max(count, excluded.count)`,
    ),
    counterSet: prepare(
      `INSERT INTO quota_counters (key, window_ms, window, count, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key, window_ms, window) DO UPDATE SET count = excluded.count`,
    ),
    receiptInsert: prepare(
      'INSERT INTO credit_debit_receipts (id, key_id, amount, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    receiptTake: prepare<{ amount: number }>(
      'DELETE FROM credit_debit_receipts WHERE id = ? AND key_id = ? RETURNING amount',
    ),
    ledgerInsert: prepare(
      `INSERT INTO credit_ledger (reference, key_id, amount, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (reference) DO NOTHING`,
    ),
    // Inserts, or takes over a row whose memory has lapsed; changes = 1 exactly when this call spent the nonce.
    paymentNonceSpend: prepare(
      `INSERT INTO spent_payment_nonces (key, expires_at) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE spent_payment_nonces.expires_at <= ?`,
    ),
    paymentNonceRelease: prepare('DELETE FROM spent_payment_nonces WHERE key = ?'),
    subnameInsert: prepare(
      `INSERT INTO subnames (parent, label, owner, records, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (parent, label) DO NOTHING`,
    ),
    subnameGet: prepare<SubnameRow>('SELECT * FROM subnames WHERE parent = ? AND label = ?'),
    subnameList: prepare<SubnameRow>(
      'SELECT * FROM subnames WHERE parent = ? ORDER BY created_at, label LIMIT ? OFFSET ?',
    ),
    subnameCountAll: prepare<{ n: number }>('SELECT count(*) AS n FROM subnames'),
    subnameCountParent: prepare<{ n: number }>('SELECT count(*) AS n FROM subnames WHERE parent = ?'),
    secretInsert: prepare('INSERT INTO service_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    secretGet: prepare<{ value: string }>('SELECT value FROM service_secrets WHERE name = ?'),
    sweeps: EXPIRING_TABLES.map((table) => prepare(`DELETE FROM ${table} WHERE expires_at <= ?`)),
  };
}

/** The prepared statements of the store's own tables. */
export type StoreStatements = ReturnType<typeof storeStatements>;

/**
 * The store's read-modify-writes, each one transaction: a concurrency slot, credits added once per reference, a
 * credit debited with its day's count, and the sweep of expired rows.
 * @example storeTransactions(db, sql).acquireSlot.immediate('key:1', 10, now + 60_000, now)
 */
export function storeTransactions(db: Database.Database, sql: StoreStatements) {
  return {
    acquireSlot: db.transaction((key: string, max: number, expiresAt: number, now: number): string | null => {
      sql.slotsExpire.run(key, now);
      if (sql.slotsCount.get(key)!.n >= max) return null;
      const token = randomUUID();
      sql.slotInsert.run(key, token, expiresAt);
      return token;
    }),
    addCredits: db.transaction((keyId: string, amount: number, reference: string, now: number): CreditResult => {
      const current = sql.creditsGet.get(keyId);
      if (!current) throw new ApiKeyNotFoundError(keyId);
      if (sql.ledgerInsert.run(reference, keyId, amount, now).changes === 0) {
        return { applied: false, balance: current.credits };
      }
      return { applied: true, balance: sql.creditsAdd.get(amount, keyId)!.credits };
    }),
    debitCredit: db.transaction((debit: SqliteDebit, count?: CounterRow): DebitResult => {
      const debited = sql.creditsDebit.get(debit.amount, debit.keyId, debit.amount);
      if (!debited) return { ok: false, balance: sql.creditsGet.get(debit.keyId)?.credits ?? 0 };
      if (count) sql.counterWrite.run(count.key, count.windowMs, count.window, count.count, count.expiresAt);
      if (debit.id !== undefined) {
        sql.receiptInsert.run(debit.id, debit.keyId, debit.amount, debit.now + DEBIT_RECEIPT_TTL_MS);
      }
      return { ok: true, balance: debited.credits };
    }),
    /** Takes the receipt; with `count`, writes the counter's row one lower (the caller moves it in memory after). */
    refundDebit: db.transaction((refund: DebitRefund, count?: CounterRow): boolean => {
      const receipt = sql.receiptTake.get(refund.id, refund.keyId);
      if (!receipt) return false;
      sql.creditsAdd.get(receipt.amount, refund.keyId);
      if (count) sql.counterSet.run(count.key, count.windowMs, count.window, count.count, count.expiresAt);
      return true;
    }),
    sweep: db.transaction((now: number) => {
      for (const statement of sql.sweeps) statement.run(now);
    }),
  };
}
