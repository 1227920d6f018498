import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { StoreCallTallies } from '../../src/observability/store-call-tallies.js';
import { UnreplicatedWriteError } from '../../src/store/redis-scripts.js';
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

  /** An API key with `credits`, straight in the store. */
  const fundedKey = async (id: string, credits: number) => {
    const key = await sqlite.createApiKey({
      id,
      wallet: `0x${'aA'.repeat(20)}`,
      name: 'k',
      keyHash: `hash-${id}`,
      prefix: 'sk…',
      createdAt: T0,
      dailyLimit: 1,
      minuteLimit: 1,
    });
    await sqlite.addCredits({ keyId: key.id, amount: credits, reference: `ref-${id}`, now: T0 });
    return key;
  };

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

  it('a call waiting for a lock held elsewhere leaves the event loop free, and goes through once the lock is gone', async () => {
    const waiting = withStoreBudget(openSqliteStore({ file: join(dir, 'store.sqlite'), busyTimeoutMs: 60_000 }), {
      isOutage: isSqliteOutage,
    });
    const locker = new Database(join(dir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    const nonce = { nonce: 'n7654321', domain: 'a.example', uri: 'https://a.example', chainId: 1 };
    let settled = false;
    const put = waiting.putNonce({ ...nonce, issuedAt: T0, expiresAt: T0 + 60_000 }).finally(() => {
      settled = true;
    });
    // Timers and I/O run while the call waits: a wait inside SQLite would have ended (settled) before this turn.
    for (let turn = 0; turn < 5; turn++) await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    locker.exec('ROLLBACK');
    locker.close();
    await expect(put).resolves.toBeUndefined();
    await expect(waiting.consumeNonce({ nonce: nonce.nonce, now: T0 + 1 })).resolves.toMatchObject(nonce);
    await waiting.close();
  });

  it('a SQLite store whose file is locked for writes does not answer ping (health is 503), though reads still work', async () => {
    const locker = new Database(join(dir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.ping()).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      await expect(store.getWallet(`0x${'ab'.repeat(20)}`)).resolves.toBeNull();
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('a refused argument is not an outage: it passes through unchanged', async () => {
    const counters = [{ key: 'k', limit: -1, windowMs: 60_000 }];
    await expect(store.consumeQuota({ counters, now: T0 })).rejects.toBeInstanceOf(StoreArgumentError);
  });

  it('with a deadline, a call that does not settle in time is a 503', async () => {
    // The ping answers only after 10 s: a 503 before then is the deadline's, however slowly the machine runs.
    const late = () => new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    const hung = new Proxy(sqlite, {
      get: (target, name) => (name === 'ping' ? late : Reflect.get(target, name)),
    });
    const budgeted = withStoreBudget(hung, { isOutage: () => false, deadlineMs: 30 });
    await expect(budgeted.ping()).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('did not answer within 30 ms'),
    });
  });

  it('a late backend: calls are answered 503 at once and not sent until a ping comes back; what the late call counted is undone', async () => {
    const sent: string[] = [];
    let answerLate: (decision: { admitted: boolean; counts: number[]; resetsAt: number[] }) => void = () => {};
    let pong: () => void = () => {};
    const refunds: unknown[] = [];
    const hung = new Proxy(sqlite, {
      get: (target, name) => {
        if (name === 'consumeQuota')
          return () => {
            sent.push('consumeQuota');
            return new Promise((resolve) => (answerLate = resolve));
          };
        if (name === 'ping') return () => new Promise<void>((resolve) => (pong = resolve));
        if (name === 'refundQuota') return async (params: unknown) => void refunds.push(params);
        return Reflect.get(target, name);
      },
    });
    const budgeted = withStoreBudget(hung, { isOutage: () => false, deadlineMs: 20 });
    const counters = [{ key: 'ip:203.0.113.7', limit: 30, windowMs: 60_000 }];
    await expect(budgeted.consumeQuota({ counters, now: T0 })).rejects.toMatchObject({ status: 503 });
    await expect(budgeted.consumeQuota({ counters, now: T0 + 1 })).rejects.toMatchObject({ status: 503 });
    expect(sent).toEqual(['consumeQuota']);
    // The backend wakes up: the call in flight ran and counted; that count is taken back.
    answerLate({ admitted: true, counts: [1], resetsAt: [T0 + 60_000] });
    pong();
    await new Promise((r) => setTimeout(r, 0));
    expect(refunds).toEqual([{ counters, now: T0 }]);
    const next = budgeted.consumeQuota({ counters, now: T0 + 2 });
    expect(sent).toEqual(['consumeQuota', 'consumeQuota']);
    answerLate({ admitted: true, counts: [1], resetsAt: [T0 + 60_000] });
    await expect(next).resolves.toMatchObject({ admitted: true });
  });

  it('counts each call by method and outcome: ok, a refused argument, an outage, past the deadline', async () => {
    const calls = new StoreCallTallies();
    const late = () => new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    const hung = new Proxy(sqlite, { get: (target, name) => (name === 'ping' ? late : Reflect.get(target, name)) });
    const budgeted = withStoreBudget(hung, { isOutage: isSqliteOutage, deadlineMs: 5000, calls });
    const counters = [{ key: 'k', limit: 3, windowMs: 60_000 }];
    await budgeted.consumeQuota({ counters, now: T0 });
    await expect(budgeted.consumeQuota({ counters: [{ ...counters[0]!, limit: -1 }], now: T0 })).rejects.toThrow();
    const locker = new Database(join(dir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    const nonce = { nonce: 'n5555555', domain: 'a.example', uri: 'https://a.example', chainId: 1 };
    await expect(budgeted.putNonce({ ...nonce, issuedAt: T0, expiresAt: T0 + 60_000 })).rejects.toMatchObject({
      status: 503,
    });
    locker.exec('ROLLBACK');
    locker.close();
    const deadline = withStoreBudget(hung, { isOutage: isSqliteOutage, deadlineMs: 30, calls });
    await expect(deadline.ping()).rejects.toMatchObject({ status: 503 });

    const outcomes = Object.fromEntries(
      [...calls.entries()].map(([call, t]) => [call, Object.fromEntries(t.outcomes)]),
    );
    expect(outcomes).toEqual({
      consumeQuota: { ok: 1, error: 1 },
      putNonce: { unavailable: 1 },
      ping: { timeout: 1 },
    });
    expect(calls.of('consumeQuota').duration.count).toBe(2);
  });

  it('a named debit whose reply was lost (its connection closed after it ran) is given back once the store answers again', async () => {
    const key = await fundedKey('key-lost-reply', 5);
    // As ioredis answers a command (or a pipeline's WAIT) cut off by a master killed under it.
    const aborted = () => Object.assign(new Error('Command aborted due to connection close'), { name: 'AbortError' });
    let refundsRefused = 2;
    const failingOver = new Proxy(sqlite, {
      get: (target, name) => {
        if (name === 'debitCredit') {
          return async (params: Parameters<Store['debitCredit']>[0]) => {
            if (params.id === 'never-ran') throw aborted();
            await target.debitCredit(params);
            throw aborted();
          };
        }
        // The store is still failing over for the first tries of the refund.
        if (name === 'refundDebit') {
          return (params: Parameters<Store['refundDebit']>[0]) =>
            refundsRefused-- > 0 ? Promise.reject(aborted()) : target.refundDebit(params);
        }
        return Reflect.get(target, name);
      },
    });
    const budgeted = withStoreBudget(failingOver, { isOutage: isRedisOutage, deadlineMs: 1_000 });
    await expect(budgeted.debitCredit({ keyId: key.id, now: T0, id: 'ran' })).rejects.toMatchObject({ status: 503 });
    expect(await sqlite.getCredits(key.id)).toBe(4);
    await expect.poll(() => sqlite.getCredits(key.id), { timeout: 5_000 }).toBe(5);
    // A debit that never ran has no receipt: nothing is given back for it.
    await expect(budgeted.debitCredit({ keyId: key.id, now: T0, id: 'never-ran' })).rejects.toMatchObject({
      status: 503,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await sqlite.getCredits(key.id)).toBe(5);
  });

  it('a named debit answered late (after its caller got a 503) is given back when its answer arrives', async () => {
    const key = await fundedKey('key-late', 3);
    let goOn: () => void = () => {};
    const hung = new Proxy(sqlite, {
      get: (target, name) => {
        if (name === 'debitCredit') {
          return async (params: Parameters<Store['debitCredit']>[0]) => {
            await new Promise<void>((resolve) => (goOn = resolve));
            return target.debitCredit(params);
          };
        }
        return Reflect.get(target, name);
      },
    });
    const budgeted = withStoreBudget(hung, { isOutage: () => false, deadlineMs: 20 });
    await expect(budgeted.debitCredit({ keyId: key.id, now: T0, id: 'late' })).rejects.toMatchObject({ status: 503 });
    goOn();
    await expect.poll(() => sqlite.getCredits(key.id)).toBe(3);
  });

  it("tells Redis failing from Redis refusing: connection and timeout errors are outages, a script's error is not", () => {
    // ioredis, as a master is killed or a cluster fails over: never a 500.
    expect(
      isRedisOutage(Object.assign(new Error('Command aborted due to connection close'), { name: 'AbortError' })),
    ).toBe(true);
    expect(isRedisOutage(new Error('Cluster is disconnected.'))).toBe(true);
    expect(isRedisOutage(new Error("Cluster isn't ready and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisOutage(new Error('None of startup nodes is available'))).toBe(true);
    expect(isRedisOutage(new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'))).toBe(
      true,
    );
    expect(isRedisOutage(new Error("Socket timeout. Expecting data, but didn't receive any in 1000ms."))).toBe(true);
    expect(isRedisOutage(new UnreplicatedWriteError('cut off'))).toBe(true);
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    expect(isRedisOutage(new Error('Command timed out'))).toBe(true);
    expect(isRedisOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisOutage(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isRedisOutage(reply('LOADING Redis is loading the dataset in memory'))).toBe(true);
    expect(isRedisOutage(reply('ERR Error running script (call to f_…): wrong number of arguments'))).toBe(false);
    expect(isRedisOutage(new StoreArgumentError('limit must be a whole number'))).toBe(false);
  });
});
