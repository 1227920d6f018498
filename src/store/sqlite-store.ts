import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ForwardedWebhookStore } from './forwarded-webhook-store.js';
import { waitForLocksOnTimers } from './sqlite-lock-wait.js';
import { SqliteNameRecordKeys } from './sqlite-name-record-keys.js';
import { acquireQuotaCounters, releaseQuotaCounters, type SqliteQuotaCounters } from './sqlite-quota-counters.js';
import { migrateSqliteSchema } from './sqlite-schema.js';
import {
  type ApiKeyRow,
  type NonceRow,
  type SqliteDebit,
  type SubnameRow,
  storeStatements,
  storeTransactions,
  type WalletRow,
} from './sqlite-store-statements.js';
import { SqliteWebhooks } from './sqlite-webhooks.js';
import type {
  ApiKeyRecord,
  CreditDebit,
  CreditResult,
  DebitRefund,
  DebitResult,
  KeyCallAdmission,
  KeyCallParams,
  KeyRotation,
  NameRecordKeys,
  NameRecordKeysRemoval,
  NameRecordKeysUpdate,
  NewApiKey,
  NonceRecord,
  QuotaCounter,
  QuotaDecision,
  QuotaReading,
  SessionRefresh,
  Store,
  StoreDescription,
  SubnameRecord,
  WalletRecord,
} from './store.js';
import { assertCount, assertKeyCount, normalizeAddress, oneOwner } from './store-arguments.js';
import { ApiKeyConflictError } from './store-errors.js';

/** How often (in caller time) expired rows are deleted; reads ignore expired rows, so this only bounds file growth. */
const SWEEP_INTERVAL_MS = 60_000;

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  wallet: row.wallet,
  name: row.name,
  keyHash: row.key_hash,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  dailyLimit: row.daily_limit,
  minuteLimit: row.minute_limit,
  credits: row.credits,
});

const toSubname = (row: SubnameRow): SubnameRecord => ({
  parent: row.parent,
  label: row.label,
  owner: row.owner,
  records: JSON.parse(row.records) as SubnameRecord['records'],
  createdAt: row.created_at,
});

const toNonce = (row: NonceRow): NonceRecord => ({
  nonce: row.nonce,
  domain: row.domain,
  uri: row.uri,
  chainId: row.chain_id,
  issuedAt: row.issued_at,
  expiresAt: row.expires_at,
});

const toWallet = (row: WalletRow): WalletRecord => ({
  address: row.address,
  firstSeenAt: row.first_seen_at,
  lastSeenAt: row.last_seen_at,
});

const isConstraintError = (err: unknown): boolean =>
  err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT');

/** Result codes (extended ones included) of a database that cannot serve now: locked elsewhere, or its disk failing. */
const OUTAGE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL)/;

/** Whether an error from the SQLite store is the database failing, rather than a bug or a refused argument. */
export function isSqliteOutage(err: unknown): boolean {
  return err instanceof Database.SqliteError && OUTAGE_CODES.test(err.code);
}

/** Whether an error is a lock another connection holds (worth waiting for), rather than a failing disk. */
export function isSqliteLock(err: unknown): boolean {
  return err instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test(err.code);
}

/** How long a call waits for a lock another connection holds when no budget is given. */
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) the embedded store: one SQLite file in WAL mode, migrated to the newest schema.
 * Every read-modify-write runs in an IMMEDIATE transaction or a single statement, so several processes may share the file.
 * A call that finds the file locked elsewhere waits on timers, never in SQLite's busy handler (which sleeps with the
 * whole process): other requests run meanwhile, and after `busyTimeoutMs` the call throws SQLITE_BUSY.
 * @example const store = openSqliteStore({ file: './data/store.sqlite' })
 */
export function openSqliteStore(params: {
  file: string;
  /** How long a call waits for a lock held by another connection before it fails (SQLITE_BUSY). */
  busyTimeoutMs?: number;
}): SqliteStore {
  const file = resolve(params.file);
  const busyTimeoutMs = params.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // Opening and migrating happen before the process serves anything: they may wait for a lock in SQLite itself.
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL: a committed transaction survives a process crash; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  migrateSqliteSchema(db);
  // From now on a locked file fails at once, and the call is tried again on a timer (sqlite-lock-wait.ts).
  db.pragma('busy_timeout = 0');
  return waitForLocksOnTimers(new SqliteStore(db, file), { budgetMs: busyTimeoutMs, isLocked: isSqliteLock });
}

/** The embedded default store (see {@link openSqliteStore}). */
export class SqliteStore extends ForwardedWebhookStore implements Store {
  private lastSweepAt = Number.NEGATIVE_INFINITY;
  /** Quota counters live in process memory, written behind to this file (sqlite-quota-counters.ts). */
  private readonly quota: SqliteQuotaCounters;
  private readonly sql;
  private readonly tx;
  private readonly recordKeys: SqliteNameRecordKeys;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {
    super(new SqliteWebhooks(db));
    this.quota = acquireQuotaCounters(file);
    this.recordKeys = new SqliteNameRecordKeys(db);
    this.sql = storeStatements(db);
    this.tx = storeTransactions(db, this.sql);
  }

  /** Deletes expired rows at most once per {@link SWEEP_INTERVAL_MS} of caller time; a locked file skips a sweep. */
  private sweepExpired(now: number): void {
    if (now - this.lastSweepAt < SWEEP_INTERVAL_MS) return;
    this.lastSweepAt = now;
    try {
      this.tx.sweep.immediate(now);
    } catch (err) {
      if (!isSqliteOutage(err)) throw err;
    }
  }

  async consumeQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaDecision> {
    return this.consumeQuotaNow(params);
  }

  /** The counters live in this process (sqlite-quota-counters.ts): every decision is made at once. */
  consumeQuotaNow(params: { counters: QuotaCounter[]; now: number }): QuotaDecision {
    this.sweepExpired(params.now);
    for (const counter of params.counters) assertCount('limit', counter.limit, 0);
    if (params.counters.length > 0) oneOwner(params.counters);
    return this.quota.consume(params.counters, params.now);
  }

  async refundQuota(params: { counters: QuotaCounter[]; now: number }): Promise<void> {
    if (params.counters.length > 0) oneOwner(params.counters);
    this.quota.refund(params.counters, params.now);
  }

  async readQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaReading> {
    for (const counter of params.counters) assertCount('limit', counter.limit, 0);
    return this.quota.read(params.counters, params.now);
  }

  async acquireSlot(params: { key: string; max: number; ttlMs: number; now: number }): Promise<string | null> {
    assertCount('max', params.max, 0);
    assertCount('ttlMs', params.ttlMs, 1);
    return this.tx.acquireSlot.immediate(params.key, params.max, params.now + params.ttlMs, params.now);
  }

  async releaseSlot(params: { key: string; token: string }): Promise<void> {
    this.sql.slotDelete.run(params.key, params.token);
  }

  async admitKeyCall(params: KeyCallParams): Promise<KeyCallAdmission> {
    // In-process: the three steps cost no round trip here.
    const token = await this.acquireSlot({
      key: params.slotKey,
      max: params.max,
      ttlMs: params.ttlMs,
      now: params.now,
    });
    if (token === null) return { token, quota: null };
    const quota = await this.consumeQuota({ counters: params.counters, now: params.now });
    if (quota.admitted) await this.touchApiKey({ id: params.keyId, now: params.now });
    return { token, quota };
  }

  async putNonce(nonce: NonceRecord): Promise<void> {
    this.sweepExpired(nonce.issuedAt);
    if (nonce.expiresAt <= nonce.issuedAt) return;
    this.sql.noncePut.run(nonce.nonce, nonce.domain, nonce.uri, nonce.chainId, nonce.issuedAt, nonce.expiresAt);
  }

  async peekNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null> {
    const row = this.sql.noncePeek.get(params.nonce, params.now);
    return row ? toNonce(row) : null;
  }

  async consumeNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null> {
    const row = this.sql.nonceTake.get(params.nonce);
    if (!row || row.expires_at <= params.now) return null;
    return toNonce(row);
  }

  async openSession(params: { sessionId: string; tokenId: string; expiresAt: number; now: number }): Promise<void> {
    this.sweepExpired(params.now);
    if (params.expiresAt <= params.now) return;
    this.sql.sessionOpen.run(params.sessionId, params.tokenId, params.expiresAt);
  }

  async refreshSession(params: SessionRefresh): Promise<boolean> {
    if (params.expiresAt <= params.now) return false;
    const { sessionId, tokenId, nextTokenId, expiresAt, now } = params;
    return this.sql.sessionRefresh.run(nextTokenId, expiresAt, sessionId, tokenId, now).changes === 1;
  }

  async endSession(params: { sessionId: string; now: number }): Promise<void> {
    this.sql.sessionEnd.run(params.sessionId);
  }

  async currentSessionToken(params: { sessionId: string; now: number }): Promise<string | null> {
    return this.sql.sessionCurrent.get(params.sessionId, params.now)?.token_id ?? null;
  }

  async touchWallet(params: { address: string; now: number }): Promise<WalletRecord> {
    return toWallet(this.sql.walletTouch.get(normalizeAddress(params.address), params.now, params.now)!);
  }

  async getWallet(address: string): Promise<WalletRecord | null> {
    const row = this.sql.walletGet.get(normalizeAddress(address));
    return row ? toWallet(row) : null;
  }

  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    try {
      const row = this.sql.keyInsert.get(
        key.id,
        normalizeAddress(key.wallet),
        key.name,
        key.keyHash,
        key.prefix,
        key.createdAt,
        key.dailyLimit,
        key.minuteLimit,
      );
      return toApiKey(row!);
    } catch (err) {
      if (isConstraintError(err)) throw new ApiKeyConflictError(key.id);
      throw err;
    }
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = this.sql.keyByHash.get(keyHash);
    return row ? toApiKey(row) : null;
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const row = this.sql.keyById.get(id);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(wallet: string): Promise<ApiKeyRecord[]> {
    return this.sql.keysByWallet.all(normalizeAddress(wallet)).map(toApiKey);
  }

  async rotateApiKey(params: KeyRotation): Promise<ApiKeyRecord | null> {
    try {
      const row = this.sql.keyRotate.get(params.keyHash, params.prefix, params.id, normalizeAddress(params.wallet));
      return row ? toApiKey(row) : null;
    } catch (err) {
      if (isConstraintError(err)) throw new ApiKeyConflictError(params.id);
      throw err;
    }
  }

  async deleteApiKey(params: { id: string; wallet: string; now: number }): Promise<boolean> {
    return this.sql.keyDelete.run(params.id, normalizeAddress(params.wallet)).changes === 1;
  }

  async touchApiKey(params: { id: string; now: number }): Promise<void> {
    this.sql.keyTouch.run(params.now, params.id);
  }

  async addCredits(params: { keyId: string; amount: number; reference: string; now: number }): Promise<CreditResult> {
    assertCount('amount', params.amount, 1);
    return this.tx.addCredits.immediate(params.keyId, params.amount, params.reference, params.now);
  }

  async debitCredit(params: CreditDebit): Promise<DebitResult> {
    const amount = params.amount ?? 1;
    assertCount('amount', amount, 1);
    assertKeyCount(params.keyId, params.count);
    const debit: SqliteDebit = { keyId: params.keyId, amount, id: params.id, now: params.now };
    if (!params.count) return this.tx.debitCredit.immediate(debit);
    let result: DebitResult = { ok: false, balance: 0 };
    // The counter's next value is written in the debit's own transaction: both commit, or neither does.
    this.quota.moveWithin(params.count, params.now, 1, (row) => {
      result = this.tx.debitCredit.immediate(debit, row);
      return result.ok;
    });
    return result;
  }

  async refundDebit(params: DebitRefund): Promise<boolean> {
    assertKeyCount(params.keyId, params.count);
    if (!params.count) return this.tx.refundDebit.immediate(params);
    let refunded = false;
    this.quota.moveWithin(params.count, params.now, -1, (row) => {
      refunded = this.tx.refundDebit.immediate(params, row);
      return refunded;
    });
    return refunded;
  }

  async getCredits(keyId: string): Promise<number> {
    return this.sql.creditsGet.get(keyId)?.credits ?? 0;
  }

  async markPaymentNonceSpent(params: { key: string; expiresAt: number; now: number }): Promise<boolean> {
    this.sweepExpired(params.now);
    // An authorization past its validity cannot be settled; refusing it is the safe answer.
    if (params.expiresAt <= params.now) return false;
    return this.sql.paymentNonceSpend.run(params.key, params.expiresAt, params.now).changes === 1;
  }

  async releasePaymentNonce(key: string): Promise<void> {
    this.sql.paymentNonceRelease.run(key);
  }

  async putSubname(subname: SubnameRecord): Promise<boolean> {
    const result = this.sql.subnameInsert.run(
      subname.parent,
      subname.label,
      normalizeAddress(subname.owner),
      JSON.stringify(subname.records),
      subname.createdAt,
    );
    return result.changes === 1;
  }

  async getSubname(params: { parent: string; label: string }): Promise<SubnameRecord | null> {
    const row = this.sql.subnameGet.get(params.parent, params.label);
    return row ? toSubname(row) : null;
  }

  async listSubnames(params: { parent: string; limit: number; offset: number }): Promise<SubnameRecord[]> {
    assertCount('limit', params.limit, 0);
    assertCount('offset', params.offset, 0);
    return this.sql.subnameList.all(params.parent, params.limit, params.offset).map(toSubname);
  }

  async countSubnames(parent?: string): Promise<number> {
    const row = parent === undefined ? this.sql.subnameCountAll.get() : this.sql.subnameCountParent.get(parent);
    return row!.n;
  }

  async getOrCreateSecret(name: string, create: () => string): Promise<string> {
    const found = this.sql.secretGet.get(name);
    if (found) return found.value;
    this.sql.secretInsert.run(name, create());
    return this.sql.secretGet.get(name)!.value;
  }

  async addNameRecordKeys(update: NameRecordKeysUpdate): Promise<void> {
    this.recordKeys.add(update);
  }

  async removeNameRecordKeys(removal: NameRecordKeysRemoval): Promise<void> {
    this.recordKeys.remove(removal);
  }

  async nameRecordKeys(nodes: readonly string[]): Promise<NameRecordKeys[]> {
    return this.recordKeys.read(nodes);
  }

  describe(): StoreDescription {
    return { kind: 'sqlite', location: this.file, durability: 'persistent' };
  }

  /** Answers only when a write could proceed: a file locked elsewhere reads fine in WAL mode but takes no write. */
  async ping(): Promise<void> {
    this.db.exec('BEGIN IMMEDIATE');
    this.db.exec('ROLLBACK');
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    releaseQuotaCounters(this.file);
    this.db.close();
  }
}
