import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The budget these tests configure: one upstream call, every attempt and retry wait included. The 'slow' scenario
 * answers after 6 s, so a 503 whose cause the health page names as the deadline did not wait for it (no test here
 * bounds the wall time: a busy machine stretches it).
 */
const BUDGET_MS = 1000;
/** The health page's word for an attempt the deadline cut off (given what was left of the budget). */
const TIMED_OUT = /^timed out after \d+ms$/;
const PRICE_SOURCES = ['coingecko', 'defillama-coins', 'coinbase'] as const;

async function timed(call: () => Promise<Response>): Promise<{ res: Response; elapsedMs: number; body: unknown }> {
  const started = performance.now();
  const res = await call();
  const body = await res.json();
  return { res, elapsedMs: performance.now() - started, body };
}

/** What /api/sources/health says last went wrong with `source`. */
async function lastError(server: TestServer, source: string): Promise<string | null> {
  const { sources } = (await (await server.get('/api/sources/health')).json()) as {
    sources: { name: string; lastError: string | null }[];
  };
  return sources.find((s) => s.name === source)?.lastError ?? null;
}

describe('upstream budget: one deadline per upstream call covers all its attempts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      UPSTREAM_TIMEOUT_MS: String(BUDGET_MS),
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    for (const source of [...PRICE_SOURCES, 'debank']) server.replay!.setScenario(source, null);
    server.replay!.resetCounts();
  });

  it('an upstream that fails fast is still retried inside the budget (three attempts), then 503', async () => {
    server.replay!.setScenario('coingecko', 'down');
    const { res } = await timed(() => server.get('/api/price/ETH'));
    expect(res.status).toBe(503);
    expect(server.replay!.requestCount('coingecko')).toBe(3);
    // An answer closes the breaker's count again, so the hung-upstream cases below start from a closed breaker.
    server.replay!.setScenario('coingecko', null);
    expect((await server.get('/api/price/UNI')).status).toBe(200);
  });

  it('a hung upstream with nothing cached answers 503 SERVICE_UNAVAILABLE within the budget, after one attempt', async () => {
    server.replay!.setScenario('coingecko', 'slow');
    const { res, elapsedMs, body } = await timed(() => server.get('/api/price/ETH'));
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ error: true, code: 'SERVICE_UNAVAILABLE', message: 'coingecko is unavailable' });
    expect(elapsedMs).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    // The deadline cut the one attempt off, and no time was left for a second.
    expect(await lastError(server, 'coingecko')).toMatch(TIMED_OUT);
    expect(server.replay!.requestCount('coingecko')).toBe(1);
  });

  it('the same holds through /graphql and for another upstream (DeBank positions)', async () => {
    server.replay!.setScenario('coingecko', 'slow');
    const graphql = await timed(() => server.post('/graphql', { query: '{ tokenPrice(symbol: "BTC") { price } }' }));
    expect(graphql.body).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] });

    server.replay!.setScenario('debank', 'slow');
    const positions = await timed(() => server.get('/api/defi/positions/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'));
    expect(positions.res.status).toBe(503);
    expect(await lastError(server, 'debank')).toMatch(TIMED_OUT);
  });

  it('three hung price sources of one smart price are waited for side by side: one budget, not three', async () => {
    for (const source of PRICE_SOURCES) server.replay!.setScenario(source, 'slow');
    const { res } = await timed(() => server.get('/api/price/smart/AAVE'));
    expect(res.status).toBe(503);
    for (const source of PRICE_SOURCES) expect(await lastError(server, source)).toMatch(TIMED_OUT);
    // Side by side: the replay held the three slow replies at one time (in turn, it would never hold more than one).
    expect(server.replay!.mostHeldAtOnce()).toBe(3);
  });
});
