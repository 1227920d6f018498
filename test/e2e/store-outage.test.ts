import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, startOwnRedis } from '../helpers/own-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A counted route answered locally: the only store work is counting the call. */
const COUNTED = '/api/price/ETH';
/** The default STORE_TIMEOUT_MS. */
const BUDGET_MS = 500;
async function timed(
  call: () => Promise<Response>,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await call();
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: Math.round(performance.now() - started) };
}

/** Polls until `ok` holds, for at most `timeoutMs`; returns how long it took. */
async function eventually(ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (!(await ok())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not recovered after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Math.round(performance.now() - started);
}

const unavailable = {
  error: true,
  code: 'SERVICE_UNAVAILABLE',
  message: expect.any(String),
  timestamp: expect.any(String),
};

describe('a Redis store that hangs or goes down: a fast 503, and health recovers by itself', () => {
  let redis: OwnRedis;
  let server: TestServer;
  const healthy = async () => (await server.get('/api/health')).status === 200;
  /** Anonymous calls counted today for this client (GET /api/usage counts nothing itself). */
  const usedToday = async () => ((await (await server.get('/api/usage')).json()) as { used: number }).used;
  beforeAll(async () => {
    redis = await startOwnRedis();
    server = await startTestServer({
      REDIS_URL: redis.url,
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      STORE_TIMEOUT_MS: String(BUDGET_MS),
    });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it('while Redis answers, calls and health are fine', async () => {
    expect((await server.get(COUNTED)).status).toBe(200);
    const health = await server.get('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'redis' });
  });

  it('a Redis that hangs (SIGSTOP): calls answer 503 in the full envelope within the budget; health is 503', async () => {
    const usedBefore = await usedToday();
    redis.freeze();
    try {
      const counted = await timed(() => server.get(COUNTED));
      const signIn = await timed(() => server.get('/api/auth/siwe/challenge'));
      const graphql = await timed(() => server.post('/graphql', { query: '{ supportedChains { key } }' }));
      const health = await timed(() => server.get('/api/health'));
      console.log('Redis frozen:', { counted, signIn, graphql: { ...graphql, body: '…' }, health });
      for (const answer of [counted, signIn, health]) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject(unavailable);
      }
      // Answered while Redis is still frozen, and by the store's budget (ioredis's own timeout would say otherwise).
      for (const answer of [counted, signIn])
        expect(answer.body.message).toMatch(`did not answer within ${BUDGET_MS} ms`);
      expect(health.body).toMatchObject({ store: 'redis' });
      expect(graphql.status).toBe(503);
      expect(graphql.body).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
    } finally {
      redis.thaw();
    }
    const ms = await eventually(healthy);
    console.log(`health back ${ms} ms after Redis was thawed`);
    // What Redis ran when it woke up (the counted call in flight) was undone: calls answered 503 count for nothing.
    expect(await usedToday()).toBe(usedBefore);
    expect((await server.get(COUNTED)).status).toBe(200);
    expect(await usedToday()).toBe(usedBefore + 1);
  });

  it('calls answered 503 while Redis hangs count for nothing once it wakes up', async () => {
    const usedBefore = await usedToday();
    redis.freeze();
    try {
      const answers: number[] = [];
      for (let i = 0; i < 5; i++) answers.push((await server.get(COUNTED)).status);
      expect(answers).toEqual([503, 503, 503, 503, 503]);
    } finally {
      redis.thaw();
    }
    await eventually(healthy);
    expect(await usedToday()).toBe(usedBefore);
  });

  it('a Redis that is down (SIGKILL): calls answer 503 fast; health recovers once Redis is back', async () => {
    await redis.kill();
    const counted = await timed(() => server.get(COUNTED));
    const health = await timed(() => server.get('/api/health'));
    console.log('Redis down:', { counted, health });
    for (const answer of [counted, health]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject(unavailable);
    }
    // Fast: refused as unavailable at once, not after waiting out the store's budget ("did not answer within").
    expect(counted.body.message).toBe('the redis store is unavailable; try again shortly');
    await redis.restart();
    const ms = await eventually(healthy);
    console.log(`health back ${ms} ms after Redis restarted`);
    expect((await server.get(COUNTED)).status).toBe(200);
  });
});

describe('a SQLite store that another process keeps locked: a fast 503, not a 500 after seconds, and no frozen server', () => {
  /** Long enough that a store-free route answering within it proves nothing waits on the lock in the event loop. */
  const LOCKED_BUDGET_MS = 5000;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      STORE_TIMEOUT_MS: String(LOCKED_BUDGET_MS),
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('20 writers answer 503 within the budget while a store-free route keeps answering; health names the store', async () => {
    // Warm: the gas route's first call reads the chain; later ones come from its cache, as a prober's would.
    expect((await server.get('/api/gas')).status).toBe(200);
    const locker = new Database(join(server.dataDir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    try {
      let firstWriterAnswer: number | undefined;
      // A challenge writes its nonce: each of the 20 waits for the lock.
      const writers = Array.from({ length: 20 }, () =>
        timed(() => server.get('/api/auth/siwe/challenge')).finally(() => {
          firstWriterAnswer ??= performance.now();
        }),
      );
      const probes: { status: number; at: number }[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await server.get('/api/gas');
        await res.arrayBuffer();
        probes.push({ status: res.status, at: performance.now() });
      }
      const health = await timed(() => server.get('/api/health'));
      const answers = await Promise.all(writers);
      console.log('SQLite locked:', {
        writers: answers.map((a) => `${a.status} ${a.ms} ms`).join(', '),
        storeFreeBeforeFirstWriter: probes.filter((p) => p.at < firstWriterAnswer!).length,
        health: `${health.status} ${health.ms} ms`,
      });
      // The store-free route was answered while every writer was still waiting for the lock.
      expect(probes.map((p) => p.status)).toEqual([200, 200, 200]);
      expect(probes.every((p) => p.at < firstWriterAnswer!)).toBe(true);
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        // Answered while the lock is still held (the lock is released only below).
        expect(answer.body).toMatchObject(unavailable);
      }
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ ...unavailable, store: 'sqlite' });
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect((await server.get('/api/auth/siwe/challenge')).status).toBe(200);
    expect((await server.get('/api/health')).status).toBe(200);
  });
});
