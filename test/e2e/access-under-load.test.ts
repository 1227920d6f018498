import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { startServerProcess, stopAllServerProcesses } from '../helpers/server-process.js';
import { bearer, type SiweServer, signIn } from '../helpers/siwe-wallet.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const REDIS_URL = TEST_REDIS_URL;
/** A counted Light route answered locally (the price replay, cached). */
const COUNTED = '/api/price/ETH';

/** Limits that let the load reach the counters under test: per-minute and concurrency out of the way, a key's free day used after 1 call. */
const LOAD_ENV = {
  // What is counted is checked here, not how fast: 1,000 calls in flight in this one process, on a machine with
  // other load, may keep a store call waiting for seconds, which must not turn into a 503.
  STORE_TIMEOUT_MS: '30000',
  // Likewise the connection timeouts: 1,000 sockets opened at once may wait seconds for their headers to be read.
  HEADERS_TIMEOUT_MS: '120000',
  REQUEST_TIMEOUT_MS: '120000',
  TRUST_PROXY: 'true',
  ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
  API_KEY_DAILY_LIMIT: '1',
  API_KEY_PER_MINUTE_LIMIT: '1000000',
  API_KEY_CONCURRENCY: '1000',
};

/** Test fixture: credits written straight to the store (purchases need a verified x402 payment). */
const fund = (store: Store, keyId: string, amount: number) =>
  store.addCredits({ keyId, amount, reference: `test-fixture:${randomUUID()}`, now: Date.now() });

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** `count` calls at once, spread round-robin over the instances; the statuses, and how long it took. */
async function burst(urls: string[], count: number, path: string, headers: Record<string, string>) {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${urls[i % urls.length]}${path}`, { headers });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  return { counts: tally(statuses), ms: Math.round(performance.now() - started) };
}

async function newKeyWithCredits(server: TestServer | SiweServer, store: Store, credits: number) {
  const session = await signIn(server);
  const res = await server.post('/api/user/keys', { name: 'load' }, bearer(session.token));
  const { id, key } = (await res.json()).key as { id: string; key: string };
  await fund(store, id, credits);
  return { id, key, session };
}

describe('two instances sharing one Redis (docs/api-contract.md#api-keys: the same key from several servers)', () => {
  let a: TestServer;
  let b: TestServer;
  const storePrefix = testKeyPrefix('access-load');
  beforeAll(async () => {
    // No JWT_SECRET: the signing secret is generated once and shared through Redis.
    [a, b] = await Promise.all([
      startTestServer({ ...LOAD_ENV, REDIS_URL }, { storePrefix }),
      startTestServer({ ...LOAD_ENV, REDIS_URL }, { storePrefix }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeysUnder(REDIS_URL, storePrefix);
  });

  it('500 concurrent anonymous calls from one IP admit exactly the daily quota across both instances', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    const { counts, ms } = await burst([a.url, b.url], 500, COUNTED, ip);
    console.log(`redis, 2 instances: 500 anonymous calls in ${ms} ms →`, counts);
    // Past the free tier a priced route answers the x402 offer (402), docs/api-contract.md#x402-payment.
    expect(counts).toEqual({ 200: 100, 402: 400 });
    expect(await (await b.get('/api/usage', ip)).json()).toMatchObject({ used: 100, limit: 100, remaining: 0 });
  });

  it('1,000 concurrent calls past the daily limit against 300 credits: exactly 300 succeed and the balance ends at 0', async () => {
    const { id, key } = await newKeyWithCredits(a, a.store, 300);
    expect((await b.get(COUNTED, { 'x-api-key': key })).status).toBe(200); // the key's one free call today
    const { counts, ms } = await burst([a.url, b.url], 1000, COUNTED, { 'x-api-key': key });
    console.log(`redis, 2 instances: 1000 paid calls in ${ms} ms →`, counts);
    expect(counts).toEqual({ 200: 300, 402: 700 });
    expect(await b.store.getCredits(id)).toBe(0);
    expect((await (await a.get('/api/usage', { 'x-api-key': key })).json()).credits).toEqual({
      balance: 0,
      usedToday: 300,
    });
  });

  it('a key rotated on one instance is refused on the other at once', async () => {
    const { id, key, session } = await newKeyWithCredits(a, a.store, 5);
    expect((await b.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    const rotated = (await (await a.post(`/api/user/keys/${id}/rotate`, {}, bearer(session.token))).json()).key;
    const old = await b.get(COUNTED, { 'x-api-key': key });
    expect(old.status).toBe(401);
    expect((await old.json()).code).toBe('INVALID_API_KEY');
    expect(await b.store.getCredits(id)).toBe(5);
    // Past its one free call today, the rotated key pays from the same credits.
    expect((await b.get(COUNTED, { 'x-api-key': rotated.key })).status).toBe(200);
    expect(await b.store.getCredits(id)).toBe(4);
  });

  it('a session logged out on one instance is refused on the other', async () => {
    const session = await signIn(a);
    expect((await b.get('/api/me', bearer(session.token))).status).toBe(200);
    expect((await a.post('/api/auth/siwe/logout', {}, bearer(session.token))).status).toBe(200);
    const after = await b.get('/api/me', bearer(session.token));
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe('UNAUTHORIZED');
  });
});

describe('one instance on SQLite (the embedded default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(LOAD_ENV);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('500 concurrent anonymous calls from one IP admit exactly the daily quota', async () => {
    const { counts, ms } = await burst([server.url], 500, COUNTED, { 'x-forwarded-for': '198.51.100.8' });
    console.log(`sqlite: 500 anonymous calls in ${ms} ms →`, counts);
    // Past the free tier a priced route answers the x402 offer (402), docs/api-contract.md#x402-payment.
    expect(counts).toEqual({ 200: 100, 402: 400 });
  });

  it('1,000 concurrent calls past the daily limit against 300 credits: exactly 300 succeed and the balance ends at 0', async () => {
    const { id, key } = await newKeyWithCredits(server, server.store, 300);
    expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    const { counts, ms } = await burst([server.url], 1000, COUNTED, { 'x-api-key': key });
    console.log(`sqlite: 1000 paid calls in ${ms} ms →`, counts);
    expect(counts).toEqual({ 200: 300, 402: 700 });
    expect(await server.store.getCredits(id)).toBe(0);
  });
});

const client = (url: string): SiweServer => ({
  get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
  post: (path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
});

describe('SQLite: a server killed with SIGKILL mid-load loses no credit', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-kill-'));
  afterAll(() => {
    stopAllServerProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every credit is either still on the key or was spent by a call, and after a restart exactly the rest can be spent', async () => {
    const CREDITS = 400;
    const WORKERS = 16;
    const first = await startServerProcess({ dataDir, env: LOAD_ENV });
    // The test process opens the same file (SQLite WAL allows it) only to fund the key: the fixture.
    const fixtureStore = openSqliteStore({ file: join(dataDir, 'store.sqlite') });
    const { id, key } = await newKeyWithCredits(client(first.url), fixtureStore, CREDITS);
    await fixtureStore.close();
    expect((await fetch(`${first.url}${COUNTED}`, { headers: { 'x-api-key': key } })).status).toBe(200);

    // WORKERS loops of paid calls; SIGKILL once 150 have been answered.
    let acknowledged = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        try {
          const res = await fetch(`${first.url}${COUNTED}`, { headers: { 'x-api-key': key } });
          await res.arrayBuffer();
          if (res.status === 200 && !killed) acknowledged++;
          else if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
        } catch (err) {
          if (!killed) throw err;
        }
        if (acknowledged >= 150 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    await first.exited;

    const second = await startServerProcess({ dataDir, env: LOAD_ENV });
    const store = openSqliteStore({ file: join(dataDir, 'store.sqlite') });
    const left = await store.getCredits(id);
    await store.close();
    const unacknowledged = CREDITS - acknowledged - left;
    console.log(
      `sqlite SIGKILL: ${acknowledged} calls answered before the kill, ${left} credits left, ${unacknowledged} debited by calls cut off in flight`,
    );
    // Answered calls were paid for durably; only calls in flight at the kill (at most one per worker) may have been paid without an answer.
    expect(unacknowledged).toBeGreaterThanOrEqual(0);
    expect(unacknowledged).toBeLessThanOrEqual(WORKERS);

    // The credits the key spent today are exactly the credits that left it.
    const usage = await (await fetch(`${second.url}/api/usage`, { headers: { 'x-api-key': key } })).json();
    console.log(`sqlite SIGKILL: credits.usedToday ${usage.credits.usedToday} for ${CREDITS - left} credits spent`);
    expect(usage.credits).toEqual({ balance: left, usedToday: CREDITS - left });

    const after = await burst([second.url], left + 20, COUNTED, { 'x-api-key': key });
    expect(after.counts).toEqual({ 200: left, 402: 20 });
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);

  it("a key's calls today stay counted through SIGKILL: at least every answered call, at most those in flight more", async () => {
    const WORKERS = 16;
    const env = { ...LOAD_ENV, API_KEY_DAILY_LIMIT: '100000' };
    const keyDir = mkdtempSync(join(tmpdir(), 'api-kill-usage-'));
    try {
      const first = await startServerProcess({ dataDir: keyDir, env });
      const session = await signIn(client(first.url));
      const created = await client(first.url).post('/api/user/keys', { name: 'kill' }, bearer(session.token));
      const { key } = (await created.json()).key as { key: string };

      let answered = 0;
      let killed = false;
      const worker = async () => {
        while (!killed) {
          try {
            const res = await fetch(`${first.url}${COUNTED}`, { headers: { 'x-api-key': key } });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
            if (!killed) answered++;
          } catch (err) {
            if (!killed) throw err;
          }
          if (answered >= 150 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      await first.exited;

      const second = await startServerProcess({ dataDir: keyDir, env });
      const usage = await (await fetch(`${second.url}/api/usage`, { headers: { 'x-api-key': key } })).json();
      console.log(`sqlite SIGKILL: the key's usedToday reads ${usage.used} for ${answered} answered calls`);
      expect(usage.used).toBeGreaterThanOrEqual(answered);
      expect(usage.used - answered).toBeLessThanOrEqual(WORKERS);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      rmSync(keyDir, { recursive: true, force: true });
    }
  }, 180_000);
});
