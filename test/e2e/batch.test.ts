import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_REQUESTS } from '../../rest-compat/routes/batch.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface BatchResult {
  path: string;
  status: number;
  body: { error?: boolean; code?: string; message?: string } & Record<string, unknown>;
}

const globalUsed = (res: Response): number => Number(res.headers.get('x-ratelimit-global-used'));

async function batch(server: TestServer, paths: string[], headers: Record<string, string> = {}) {
  const res = await server.post('/api/batch', { requests: paths.map((path) => ({ path })) }, headers);
  return { res, body: (await res.json()) as { results: BatchResult[]; count: number } };
}

describe('POST /api/batch: up to 20 GET paths in one Heavy call, each under the same rules as a call of its own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers each path in order with its own status and body; bad input inside is that item's 400, not the batch's", async () => {
    const { res, body } = await batch(server, [
      '/api/price/ETH',
      '/api/defi/protocols?limit=2',
      '/api/price/NOPECOIN',
      '/api/defi/protocols?limit=500',
      '/api/health',
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    expect(body.count).toBe(5);
    expect(body.results.map((r) => [r.path, r.status])).toEqual([
      ['/api/price/ETH', 200],
      ['/api/defi/protocols?limit=2', 200],
      ['/api/price/NOPECOIN', 404],
      ['/api/defi/protocols?limit=500', 400],
      ['/api/health', 200],
    ]);
    expect(body.results[0]!.body).toMatchObject({ symbol: 'ETH', price: 3012.45 });
    // The same body the path gives on its own.
    const alone = await (await server.get('/api/defi/protocols?limit=2')).json();
    expect(body.results[1]!.body).toEqual(alone);
    expect(body.results[2]!.body).toMatchObject({ error: true, code: 'NOT_FOUND' });
    expect(body.results[3]!.body).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
  });

  it('counts as ONE request however many paths it holds', async () => {
    const before = globalUsed(await server.get('/api/defi/protocols?limit=1'));
    const { res } = await batch(
      server,
      Array.from({ length: MAX_BATCH_REQUESTS }, (_, i) => `/api/defi/protocols?limit=1&offset=${i}`),
    );
    expect(globalUsed(res)).toBe(before + 1);
    const after = globalUsed(await server.get('/api/defi/protocols?limit=1'));
    expect(after).toBe(before + 2);
  });

  it(`refuses more than ${MAX_BATCH_REQUESTS} requests, none, and bodies that are not {requests: [{path}]} (400, nothing counted)`, async () => {
    const before = globalUsed(await server.get('/api/defi/protocols?limit=1'));
    const tooMany = await batch(
      server,
      Array.from({ length: MAX_BATCH_REQUESTS + 1 }, () => '/api/health'),
    );
    expect(tooMany.res.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    for (const bad of [
      { requests: [] },
      { requests: [{ url: '/api/health' }] },
      { requests: '/api/health' },
      [],
      'x',
    ]) {
      const res = await server.post('/api/batch', bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    }
    expect(globalUsed(await server.get('/api/defi/protocols?limit=1'))).toBe(before + 1);
  });

  it('never leaves the API: absolute URLs, protocol-relative and non-relative paths are refused per item, and nothing is fetched', async () => {
    server.replay!.resetCounts();
    const { res, body } = await batch(server, [
      'http://169.254.169.254/latest/meta-data/',
      'https://example.com/api/price/ETH',
      '//example.com/api/price/ETH',
      '/\\example.com/api/price/ETH',
      'api/price/ETH',
      '/api/price/ETH#x',
      ' /api/price/ETH',
    ]);
    expect(res.status).toBe(200);
    for (const r of body.results) {
      expect(r.status, r.path).toBe(400);
      expect(r.body).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    }
    expect(server.replay!.requestCount()).toBe(0);
  });

  it('reaches only GET routes of the table: a batch inside a batch (a POST route), /graphql, /metrics and unknown paths are refused per item', async () => {
    const { body } = await batch(server, [
      '/api/batch',
      '/graphql?query=%7B__typename%7D',
      '/metrics',
      '/api/nope',
      '/api/../metrics',
    ]);
    expect(body.results.map((r) => [r.path, r.status, r.body.code])).toEqual([
      ['/api/batch', 400, 'INVALID_PARAMETER'],
      ['/graphql?query=%7B__typename%7D', 404, 'NOT_FOUND'],
      ['/metrics', 404, 'NOT_FOUND'],
      ['/api/nope', 404, 'NOT_FOUND'],
      ['/api/../metrics', 404, 'NOT_FOUND'],
    ]);
  });

  it('refuses Auth and Write tier routes per item (a batch must not multiply their stricter limits)', async () => {
    const { body } = await batch(server, ['/api/auth/siwe/challenge', '/api/auth/nonce']);
    for (const r of body.results) expect([r.status, r.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it("carries the caller's credentials: a path that needs a session answers its own 401 inside; a bad API key refuses the whole batch", async () => {
    const { body } = await batch(server, ['/api/me', '/api/price/ETH']);
    expect(body.results.map((r) => r.status)).toEqual([401, 200]);
    const badKey = await batch(server, ['/api/price/ETH'], { 'x-api-key': 'not-a-real-key' });
    expect(badKey.res.status).toBe(401);
    expect(badKey.body).toMatchObject({ error: true, code: 'INVALID_API_KEY' });
  });

  it('the inner-request mark cannot be forged: a caller sending the header is counted like anyone', async () => {
    const before = globalUsed(await server.get('/api/defi/protocols?limit=1'));
    const forged = await server.get('/api/defi/protocols?limit=1', { 'x-batch-inner-call': 'f'.repeat(64) });
    expect(forged.status).toBe(200);
    expect(globalUsed(forged)).toBe(before + 1);
  });

  it('garbage inner paths never make a 5xx: every item answers a 4xx (or 200) in the envelope', async () => {
    const innerPath = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => `/api/${s}`),
      fc.constantFrom(
        '/api/price/%',
        '/api/defi/protocol/%E0%A4%A',
        '/api/events?limit=%zz',
        '/api/yields?chain=\u0000',
        '/api/defi/positions/0x',
      ),
      fc.webUrl(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(innerPath, { minLength: 1, maxLength: MAX_BATCH_REQUESTS }), async (paths) => {
        const { res, body } = await batch(server, paths);
        expect(res.status).toBe(200);
        expect(body.results.map((r) => r.path)).toEqual(paths);
        for (const r of body.results) {
          expect(r.status, `${r.path} → ${JSON.stringify(r.body).slice(0, 200)}`).toBeLessThan(500);
          if (r.status >= 400)
            expect(r.body).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String) });
        }
      }),
      { numRuns: 25 },
    );
  });

  it('is Heavy at $0.02 in the OpenAPI document and the x402 offers', async () => {
    const openapi = await (await server.get('/api/openapi.yaml')).text();
    expect(openapi).toMatch(/operationId: runBatch[\s\S]*?x-tier: heavy[\s\S]*?x-price-usd: "?0\.02"?/);
    const x402 = await (await server.get('/.well-known/x402')).json();
    expect(x402.accepts.find((o: { path: string }) => o.path === '/api/batch')).toMatchObject({
      method: 'POST',
      priceUSD: '0.02',
    });
  });
});
