import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { isRedisOutage } from '../../src/store/redis-store.js';
import { isSqliteOutage, openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { withStoreBudget } from '../../src/store/store-budget.js';
import { StoreArgumentError } from '../../src/store/store-errors.js';

const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);

describe('a store outage is a 503 SERVICE_UNAVAILABLE, never a 500 (docs/configuration.md: STORE_TIMEOUT_MS)', () => {
  let dir: string;
  let sqlite: SqliteStore;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-budget-'));
    sqlite = openSqliteStore({ file: join(dir, 'store.sqlite'), busyTimeoutMs: 50 });
    store = withStoreBudget(sqlite, { isOutage: isSqliteOutage });
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a SQLite write kept waiting for a lock held elsewhere is a 503 after the lock wait', async () => {
    const locker = new Database(join(dir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    const nonce = { nonce: 'n1234567', domain: 'a.example', uri: 'https://a.example', chainId: 1 };
    const refused = await store.putNonce({ ...nonce, issuedAt: T0, expiresAt: T0 + 60_000 }).catch((e: unknown) => e);
    locker.exec('ROLLBACK');
    locker.close();
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    await expect(store.putNonce({ ...nonce, issuedAt: T0, expiresAt: T0 + 60_000 })).resolves.toBeUndefined();
  });

  it('a refused argument is not an outage: it passes through unchanged', async () => {
    const counters = [{ key: 'k', limit: -1, windowMs: 60_000 }];
    await expect(store.consumeQuota({ counters, now: T0 })).rejects.toBeInstanceOf(StoreArgumentError);
  });

  it('with a deadline, a call that does not settle in time is a 503', async () => {
    const hung = new Proxy(sqlite, {
      get: (target, name) => (name === 'ping' ? () => new Promise(() => {}) : Reflect.get(target, name)),
    });
    const budgeted = withStoreBudget(hung, { isOutage: () => false, deadlineMs: 30 });
    const started = performance.now();
    await expect(budgeted.ping()).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("tells Redis failing from Redis refusing: connection and timeout errors are outages, a script's error is not", () => {
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    expect(isRedisOutage(new Error('Command timed out'))).toBe(true);
    expect(isRedisOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisOutage(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isRedisOutage(reply('LOADING Redis is loading the dataset in memory'))).toBe(true);
    expect(isRedisOutage(reply('ERR Error running script (call to f_…): wrong number of arguments'))).toBe(false);
    expect(isRedisOutage(new StoreArgumentError('limit must be a whole number'))).toBe(false);
  });
});
