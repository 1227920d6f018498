import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { QUOTA_FLUSH_INTERVAL_MS } from '../../src/store/sqlite-quota-counters.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { apiKeyOwner } from '../../src/store/store.js';
import { describeStoreContract } from './store-contract.js';

const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);
const WALLET = `0x${'ab'.repeat(20)}`;
const WORKER = fileURLToPath(new URL('./workers/sqlite-worker.ts', import.meta.url));
const LOADER = fileURLToPath(new URL('../helpers/ts-loader/register.mjs', import.meta.url));

describeStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
  const file = join(dir, 'store.sqlite');
  // Two connections to one file: what one writes, the other sees.
  const stores = [openSqliteStore({ file }), openSqliteStore({ file })];
  return {
    stores,
    dispose: async () => {
      await Promise.all(stores.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** Starts a worker process on the store file (TypeScript run through the test loader, no build needed). */
function startWorker(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', LOADER, WORKER, ...args], { stdio: 'pipe' });
  const lines: string[] = [];
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) console.error(stderr);
      resolve(code);
    }),
  );
  return { child, lines, exited };
}

const flushed = () => new Promise((resolve) => setTimeout(resolve, QUOTA_FLUSH_INTERVAL_MS * 3));

/**
 * Waits until `condition` holds, however long a loaded machine takes to start the workers; a worker that exits first
 * fails the wait at once (a hang is left to the test's timeout).
 */
async function waitFor(condition: () => boolean, workers: { exited: Promise<number | null> }[]): Promise<void> {
  let exit: number | null | undefined;
  for (const w of workers) void w.exited.then((code) => (exit ??= code));
  while (!condition()) {
    if (exit !== undefined) throw new Error(`a worker exited (${exit}) before it was ready`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('sqlite store on disk', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
    file = join(dir, 'nested', 'store.sqlite');
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('openStore without a Redis URL keeps the data in <dataDir>/store.sqlite, creating the directory', async () => {
    const dataDir = join(dir, 'data');
    const store = await openStore({ dataDir });
    expect(store.describe()).toEqual({
      kind: 'sqlite',
      location: join(dataDir, 'store.sqlite'),
      durability: 'persistent',
    });
    expect(existsSync(join(dataDir, 'store.sqlite'))).toBe(true);
    await store.close();
  });

  it('data survives close and reopen', async () => {
    const first = openSqliteStore({ file });
    const key = await first.createApiKey({
      id: 'key-1',
      wallet: WALLET,
      name: 'server',
      keyHash: 'hash-1',
      prefix: 'sk…',
      createdAt: T0,
      dailyLimit: 250,
      minuteLimit: 60,
    });
    await first.addCredits({ keyId: key.id, amount: 100, reference: 'tx:1', now: T0 });
    await first.debitCredit({ keyId: key.id, now: T0 });
    await first.consumeQuota({ counters: [{ key: 'ip:1', limit: 10, windowMs: 86_400_000 }], now: T0 });
    await first.putNonce({
      nonce: 'n1',
      domain: 'example.com',
      uri: 'https://example.com',
      chainId: 1,
      issuedAt: T0,
      expiresAt: T0 + 300_000,
    });
    await first.putSubname({
      parent: 'example.eth',
      label: 'alice',
      owner: WALLET,
      records: { addresses: { '60': WALLET }, texts: {} },
      createdAt: T0,
    });
    await first.markPaymentNonceSpent({ key: 'p1', expiresAt: T0 + 60_000, now: T0 });
    await first.close();

    const reopened = openSqliteStore({ file });
    expect(await reopened.findApiKeyByHash('hash-1')).toMatchObject({ id: 'key-1', credits: 99 });
    expect(await reopened.addCredits({ keyId: key.id, amount: 100, reference: 'tx:1', now: T0 })).toEqual({
      applied: false,
      balance: 99,
    });
    expect(
      (await reopened.readQuota({ counters: [{ key: 'ip:1', limit: 10, windowMs: 86_400_000 }], now: T0 })).counts,
    ).toEqual([1]);
    expect(await reopened.consumeNonce({ nonce: 'n1', now: T0 + 1 })).not.toBeNull();
    expect(await reopened.countSubnames()).toBe(1);
    expect(await reopened.markPaymentNonceSpent({ key: 'p1', expiresAt: T0 + 60_000, now: T0 + 1 })).toBe(false);
    await reopened.close();
  });

  it('runs in WAL mode', async () => {
    const store = openSqliteStore({ file });
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await store.close();
  });

  it('expired windows, slots, nonces and sessions are swept away', async () => {
    const store = openSqliteStore({ file });
    await store.consumeQuota({ counters: [{ key: 'ip:1', limit: 10, windowMs: 60_000 }], now: T0 });
    await store.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now: T0 });
    await store.putNonce({
      nonce: 'n1',
      domain: 'example.com',
      uri: 'https://example.com',
      chainId: 1,
      issuedAt: T0,
      expiresAt: T0 + 300_000,
    });
    await store.openSession({ sessionId: 's1', tokenId: 't1', expiresAt: T0 + 60_000, now: T0 });
    await store.markPaymentNonceSpent({ key: 'p1', expiresAt: T0 + 60_000, now: T0 });
    const db = new Database(file, { readonly: true });
    const rows = () =>
      ['quota_counters', 'concurrency_slots', 'siwe_nonces', 'siwe_sessions', 'spent_payment_nonces'].map(
        (table) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
      );
    // Quota counts are written behind: they reach the file within the flush interval.
    await flushed();
    expect(rows()).toEqual([1, 1, 1, 1, 1]);
    await store.consumeQuota({ counters: [{ key: 'ip:1', limit: 10, windowMs: 60_000 }], now: T0 + 10 * 60_000 });
    await flushed();
    expect(rows()).toEqual([1, 0, 0, 0, 0]);
    db.close();
    await store.close();
  });

  it('a quota is decided at once (consumeQuotaNow) on the counters consumeQuota moves, through openStore too', async () => {
    const store = await openStore({ dataDir: dir });
    const counter = { key: 'ip:now', limit: 3, windowMs: 60_000 };
    expect(store.consumeQuotaNow!({ counters: [counter], now: T0 })).toEqual({
      admitted: true,
      counts: [1],
      resetsAt: [T0 + 60_000],
    });
    expect((await store.consumeQuota({ counters: [counter], now: T0 })).counts).toEqual([2]);
    expect(store.consumeQuotaNow!({ counters: [counter], now: T0 })).toMatchObject({ admitted: true, counts: [3] });
    // At the limit: refused, and nothing moves.
    expect(store.consumeQuotaNow!({ counters: [counter], now: T0 })).toMatchObject({ admitted: false, counts: [3] });
    expect((await store.readQuota({ counters: [counter], now: T0 })).counts).toEqual([3]);
    await store.close();
  });

  it('a quota decision at once on a file locked elsewhere is not made (nothing counted): consumeQuota waits for it', async () => {
    const store = openSqliteStore({ file, busyTimeoutMs: 5_000 });
    // A closing count is written before the call is answered: the lock is met.
    const counter = { key: 'ip:locked', limit: 1, windowMs: 60_000 };
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    expect(store.consumeQuotaNow!({ counters: [counter], now: T0 })).toBeUndefined();
    const waited = store.consumeQuota({ counters: [counter], now: T0 });
    setTimeout(() => locker.exec('ROLLBACK'), 50);
    expect(await waited).toMatchObject({ admitted: true, counts: [1] });
    locker.close();
    await store.close();
  });

  it('a quota that reaches its limit is on disk at once: a crash cannot reopen it', async () => {
    const counter = { key: 'ip:closed', limit: 2, windowMs: 60_000 };
    const store = openSqliteStore({ file });
    await store.consumeQuota({ counters: [counter], now: T0 });
    await store.consumeQuota({ counters: [counter], now: T0 });
    // Read the file through another connection before any flush could run: the closing count is already there.
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT count FROM quota_counters WHERE key = ?').get('ip:closed') as
      | { count: number }
      | undefined;
    db.close();
    expect(row?.count).toBe(2);
    await store.close();
  });

  it("a durable counter (an API key's) is on disk before the call is answered, below its limit too", async () => {
    const counter = { key: 'key:durable', limit: 250, windowMs: 86_400_000, durable: true };
    const store = openSqliteStore({ file });
    for (let i = 0; i < 3; i++) await store.consumeQuota({ counters: [counter], now: T0 });
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT count FROM quota_counters WHERE key = ?').get('key:durable') as
      | { count: number }
      | undefined;
    db.close();
    expect(row?.count).toBe(3);
    await store.close();
  });

  it('a counted debit writes the credit and the count in one transaction', async () => {
    const store = openSqliteStore({ file });
    await store.createApiKey({
      id: 'key-1',
      wallet: WALLET,
      name: 'server',
      keyHash: 'hash-1',
      prefix: 'sk…',
      createdAt: T0,
      dailyLimit: 250,
      minuteLimit: 60,
    });
    await store.addCredits({ keyId: 'key-1', amount: 5, reference: 'tx:1', now: T0 });
    const spent = {
      key: 'credits-used:key-1:day',
      limit: Number.MAX_SAFE_INTEGER,
      windowMs: 86_400_000,
      owner: apiKeyOwner('key-1'),
    };
    for (let i = 0; i < 3; i++) await store.debitCredit({ keyId: 'key-1', count: spent, now: T0 });
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT count FROM quota_counters WHERE key = ?').get(spent.key) as { count: number };
    db.close();
    expect(row.count).toBe(3);
    expect(await store.getCredits('key-1')).toBe(2);
    await store.close();
  });

  it('quota counts survive a restart: written behind while running, flushed on close', async () => {
    const counter = { key: 'ip:restart', limit: 5, windowMs: 60_000 };
    const first = openSqliteStore({ file });
    for (let i = 0; i < 3; i++) await first.consumeQuota({ counters: [counter], now: T0 });
    await first.close();
    const second = openSqliteStore({ file });
    expect((await second.readQuota({ counters: [counter], now: T0 })).counts).toEqual([3]);
    await second.consumeQuota({ counters: [counter], now: T0 });
    await second.consumeQuota({ counters: [counter], now: T0 });
    expect((await second.consumeQuota({ counters: [counter], now: T0 })).admitted).toBe(false);
    await second.close();
  });

  it('a crash in the middle of crediting loses no acknowledged credit and doubles none', async () => {
    const setup = openSqliteStore({ file });
    await setup.createApiKey({
      id: 'key-1',
      wallet: WALLET,
      name: 'server',
      keyHash: 'hash-1',
      prefix: 'sk…',
      createdAt: T0,
      dailyLimit: 250,
      minuteLimit: 60,
    });
    await setup.close();

    const runId = randomUUID();
    const worker = startWorker(['credit-loop', file, 'key-1', runId]);
    await waitFor(() => worker.lines.length > 2_000, [worker]);
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBeNull();
    const acknowledged = worker.lines.filter((l) => l.startsWith(runId));

    const reopened = openSqliteStore({ file });
    const balance = await reopened.getCredits('key-1');
    const db = new Database(file, { readonly: true });
    const ledger = db.prepare('SELECT reference FROM credit_ledger WHERE key_id = ?').pluck().all('key-1') as string[];
    db.close();
    // Every applied reference is in the ledger exactly once and the balance is their sum.
    expect(balance).toBe(ledger.length);
    expect(new Set(ledger).size).toBe(ledger.length);
    // Nothing acknowledged was lost; at most the one commit in flight was not yet acknowledged.
    const recorded = new Set(ledger);
    expect(acknowledged.every((ref) => recorded.has(ref))).toBe(true);
    expect(ledger.length - acknowledged.length).toBeGreaterThanOrEqual(0);
    expect(ledger.length - acknowledged.length).toBeLessThanOrEqual(1);
    // Replaying every acknowledged payment credits nothing more.
    for (const reference of acknowledged.slice(-50)) {
      expect((await reopened.addCredits({ keyId: 'key-1', amount: 1, reference, now: T0 })).applied).toBe(false);
    }
    expect(await reopened.getCredits('key-1')).toBe(balance);
    await reopened.close();
  });

  it('two processes debiting one key at once take exactly the credits there are', async () => {
    const setup = openSqliteStore({ file });
    await setup.createApiKey({
      id: 'key-1',
      wallet: WALLET,
      name: 'server',
      keyHash: 'hash-1',
      prefix: 'sk…',
      createdAt: T0,
      dailyLimit: 250,
      minuteLimit: 60,
    });
    await setup.addCredits({ keyId: 'key-1', amount: 3_000, reference: 'tx:1', now: T0 });

    const workers = [startWorker(['debit', file, 'key-1', '2000']), startWorker(['debit', file, 'key-1', '2000'])];
    await waitFor(() => workers.every((w) => w.lines.includes('ready')), workers);
    for (const w of workers) w.child.stdin.write('go\n');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    const taken = workers.map((w) => (JSON.parse(w.lines.at(-1)!) as { ok: number }).ok);
    expect(taken[0] + taken[1]).toBe(3_000);
    expect(await setup.getCredits('key-1')).toBe(0);
    await setup.close();
  });
});
