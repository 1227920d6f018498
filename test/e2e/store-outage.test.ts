import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, startOwnRedis } from '../helpers/own-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A counted route answered locally: the only store work is counting the call. */
const COUNTED = '/api/price/ETH';
/** The default STORE_TIMEOUT_MS. */
const BUDGET_MS = 500;
/**
 * Later than this, a frozen Redis's 503 was not the budget's: ioredis's own command timeout (10 × the budget) answers
 * at 5 s. Half of that leaves a busy machine room; the message says which deadline answered.
 */
const REDIS_LATE_MS = 5 * BUDGET_MS;
/**
 * A locked SQLite file is waited for synchronously (busy_timeout = the budget), so the server's event loop stands
 * still for the whole budget and, on a loaded CI machine, gets the CPU back late (1.3 s seen beside the other e2e
 * files; 0.51 s alone). Still far below what the test rules out: better-sqlite3's own 5 s wait.
 */
const SQLITE_SLACK_MS = 1500;

async function timed(
  call: () => Promise<Response>,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await call();
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: Math.round(performance.now() - started) };
}

/** Polls until `ok` holds, for at most `timeoutMs`; returns how long it took. */
async function eventually(ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<number> {
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
        expect(answer.ms).toBeLessThan(REDIS_LATE_MS);
      }
      for (const answer of [counted, signIn])
        expect(answer.body.message).toMatch(`did not answer within ${BUDGET_MS} ms`);
      expect(health.body).toMatchObject({ store: 'redis' });
      expect(graphql.status).toBe(503);
      expect(graphql.body).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
      expect(graphql.ms).toBeLessThan(REDIS_LATE_MS);
    } finally {
      redis.thaw();
    }
    const ms = await eventually(healthy);
    console.log(`health back ${ms} ms after Redis was thawed`);
    expect((await server.get(COUNTED)).status).toBe(200);
  });

  it('a Redis that is down (SIGKILL): calls answer 503 fast; health recovers once Redis is back', async () => {
    await redis.kill();
    const counted = await timed(() => server.get(COUNTED));
    const health = await timed(() => server.get('/api/health'));
    console.log('Redis down:', { counted, health });
    for (const answer of [counted, health]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject(unavailable);
      expect(answer.ms).toBeLessThan(REDIS_LATE_MS);
    }
    await redis.restart();
    const ms = await eventually(healthy);
    console.log(`health back ${ms} ms after Redis restarted`);
    expect((await server.get(COUNTED)).status).toBe(200);
  });
});

describe('a SQLite store that another process keeps locked: a fast 503, not a 500 after seconds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ STORE_TIMEOUT_MS: String(BUDGET_MS) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a write that cannot get the lock within the budget answers 503; once the lock is gone it succeeds', async () => {
    const locker = new Database(join(server.dataDir, 'store.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    try {
      // A challenge writes its nonce.
      const locked = await timed(() => server.get('/api/auth/siwe/challenge'));
      console.log('SQLite locked:', locked);
      expect(locked.status).toBe(503);
      expect(locked.body).toMatchObject(unavailable);
      expect(locked.ms).toBeLessThan(BUDGET_MS + SQLITE_SLACK_MS);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect((await server.get('/api/auth/siwe/challenge')).status).toBe(200);
  });
});
