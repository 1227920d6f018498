import { Validator } from '@seriousme/openapi-schema-validator';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const gql = (server: TestServer, query: string, headers: Record<string, string> = {}) =>
  server.post('/graphql', { query }, headers);

const METRICS_TOKEN = 'scraper-token-0123456789';

describe('the vertical slice, REST → gateway → subgraph → source', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('GET /api/health says the service is ok, with its version and store', async () => {
    const res = await server.get('/api/health');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', version: '3.0.0', store: 'sqlite' });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it('GET /api/gas gives slow ≤ standard ≤ fast fees in gwei, read from the local chain', async () => {
    const res = await server.get('/api/gas');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=12');
    const gas = await res.json();
    expect(gas).toMatchObject({ chain: 'ethereum', chainId: 1, unit: 'gwei' });
    const tip = (s: string) => Number(gas[s].maxPriorityFeePerGas);
    expect(tip('slow')).toBeGreaterThan(0);
    expect(tip('slow')).toBeLessThanOrEqual(tip('standard'));
    expect(tip('standard')).toBeLessThanOrEqual(tip('fast'));
    expect(Number(gas.fast.maxFeePerGas)).toBeCloseTo(2 * Number(gas.baseFee) + tip('fast'), 6);
  });

  it('GET /api/gas accepts a chain by ID and refuses an unsupported one with 400', async () => {
    expect((await server.get('/api/gas?chain=1')).status).toBe(200);
    const res = await server.get('/api/gas?chain=solana');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
  });

  it('a chain with no RPC configured is 503 SERVICE_UNAVAILABLE in the full envelope', async () => {
    const res = await server.get('/api/gas?chain=arbitrum');
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'timestamp']);
    expect(body).toMatchObject({ error: true, code: 'SERVICE_UNAVAILABLE' });
  });

  it('GET /api/sources/health lists the embedded chain as local and up, with its latency', async () => {
    await server.get('/api/gas');
    const body = await (await server.get('/api/sources/health')).json();
    const rpc = body.sources.find((s: { name: string }) => s.name === 'rpc:ethereum');
    expect(rpc).toMatchObject({ kind: 'rpc', mode: 'local', state: 'up' });
    expect(typeof rpc.lastLatencyMs).toBe('number');
  });

  it('GET /.well-known/x402 gives receiver, USDC on Base, network, facilitator and accepts', async () => {
    const body = await (await server.get('/.well-known/x402')).json();
    expect(body).toMatchObject({
      network: 'base',
      chainId: 8453,
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      receiver: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      facilitator: expect.stringMatching(/^https?:\/\//),
    });
    expect(Array.isArray(body.accepts)).toBe(true);
    for (const offer of body.accepts) {
      expect(offer.resource.startsWith(server.url)).toBe(true);
      expect(BigInt(offer.maxAmountRequired)).toBe(BigInt(Math.round(Number(offer.priceUSD) * 1e6)));
    }
  });

  it('GET /api/openapi.yaml is a valid OpenAPI 3.1 document, version 3.0.0, with every row of the table', async () => {
    const res = await server.get('/api/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('yaml');
    const doc = parseYaml(await res.text());
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('3.0.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const row of ROUTE_TABLE.rows) expect(doc.paths[row.path]?.[row.method.toLowerCase()]).toBeDefined();
  });

  it('GET /docs answers 200 with an HTML page that renders the OpenAPI document (no redirect)', async () => {
    // In process, nothing follows a redirect: a 3xx would be seen as it is.
    const res = await server.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('/api/openapi.yaml');
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect((await server.get(src)).status).toBe(200);
  });

  it('/graphql answers the same data as the REST routes', async () => {
    const rest = await (await server.get('/api/gas')).json();
    const res = await gql(
      server,
      '{ gasPrices { chain chainId blockNumber baseFee standard { maxFeePerGas maxPriorityFeePerGas } } }',
    );
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.gasPrices).toEqual({
      chain: rest.chain,
      chainId: rest.chainId,
      blockNumber: rest.blockNumber,
      baseFee: rest.baseFee,
      standard: rest.standard,
    });
    const wk = await (await server.get('/.well-known/x402')).json();
    const viaGraph = await (await gql(server, '{ x402Config { receiver asset network facilitator } }')).json();
    expect(viaGraph.data.x402Config).toEqual({
      receiver: wk.receiver,
      asset: wk.asset,
      network: wk.network,
      facilitator: wk.facilitator,
    });
  });

  it('/graphql answers GET queries, and a browser GET gets the GraphiQL page', async () => {
    const res = await server.get(`/graphql?query=${encodeURIComponent('{ health { status } }')}`);
    expect(await res.json()).toEqual({ data: { health: { status: 'ok' } } });
    const page = await server.get('/graphql', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('graphiql');
  });

  it('echoes a caller X-Request-Id and makes one when none is sent', async () => {
    const given = await server.get('/api/health', { 'x-request-id': 'trace-abc.123' });
    expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
    const [first, second] = [await server.get('/api/health'), await server.get('/api/health')];
    const made = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    for (const id of made) expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    expect(made[0]).not.toBe(made[1]);
  });

  it('unknown paths and methods are 404 in the full envelope', async () => {
    for (const res of [await server.get('/api/not-a-route'), await server.post('/api/health', {})]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    }
  });

  it('serves Prometheus metrics at /metrics to a scraper with the METRICS_TOKEN bearer token, and to no one else', async () => {
    const refused = await server.get('/metrics');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: true, code: 'UNAUTHORIZED' });
    const text = await (await server.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
  });
});

describe('/graphql limits and access', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers operations within the depth limit, fragments included (the rule itself: operation-limits.test.ts)', async () => {
    const fragment =
      'query { gasPrices { slow { ...A } } } fragment A on GasSpeed { maxFeePerGas ... on GasSpeed { maxFeePerGas } }';
    const body = await (await gql(server, fragment)).json();
    expect(body.errors).toBeUndefined();
    expect(typeof body.data.gasPrices.slow.maxFeePerGas).toBe('string');
  });

  it('refuses more than 15 aliases', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: health { status }`).join(' ');
    const body = await (await gql(server, `{ ${aliases} }`)).json();
    expect(body.errors?.[0]?.message).toMatch(/more than 15 aliases/);
  });

  it('refuses a document of more than 1000 tokens', async () => {
    const fields = Array.from({ length: 1001 }, () => '__typename').join(' ');
    const res = await gql(server, `{ ${fields} }`);
    const body = await res.json();
    expect(body.errors?.[0]?.message).toMatch(/more that 1000 tokens/);
  });

  it('allows introspection, as GraphiQL needs it, and counts it like any Medium operation', async () => {
    const first = await gql(server, '{ __schema { queryType { name } } }');
    expect((await first.json()).data.__schema.queryType.name).toBe('Query');
    expect(first.headers.get('x-ratelimit-tier')).toBe('medium');
    const second = await gql(server, getIntrospectionQuery());
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-tier')).toBe('medium');
    expect(Number(second.headers.get('x-ratelimit-tier-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-tier-remaining')) - 1,
    );
  });

  it('refuses an operation above the cost limit (GRAPHQL_MAX_COST, 1000): ten full profiles in one operation', async () => {
    const profile =
      'ensProfile(name: "alice.eth") { name address avatar contentHash records { key value } expiration registrant controller resolver wallet { address primaryName balance { balance balanceUsd tokens { symbol balance balanceUsd } } farcasterUser { fid username displayName pfp followers following recentCasts(limit: 5) { hash text timestamp } } } }';
    const ten = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: ${profile}`).join(' ')} }`;
    // GraphQL over HTTP: 400 for a client that accepts application/graphql-response+json, 200 for plain JSON.
    const res = await gql(server, ten, { accept: 'application/graphql-response+json' });
    expect(res.status).toBe(400);
    expect((await gql(server, ten)).status).toBe(200);
    const body = await res.json();
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^Query Cost limit of 1000 exceeded, found \d+/),
        // Apollo reports every validation rule's refusal (depth, aliases, cost) under its own code.
        extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
      }),
    ]);
    // One full profile is what GET /api/profile/full runs: well within the limit.
    const one = await gql(server, `{ ${profile} }`);
    expect((await one.json()).errors).toBeUndefined();
  });

  it('charges an operation at its heaviest root field and sends the X-RateLimit-* headers', async () => {
    const res = await gql(server, '{ supportedChains { key } }');
    expect(res.status).toBe(200);
    for (const h of [
      'limit',
      'remaining',
      'reset',
      'tier',
      'tier-limit',
      'tier-remaining',
      'global-used',
      'global-limit',
    ]) {
      expect(res.headers.get(`x-ratelimit-${h}`), h).not.toBeNull();
    }
    expect(res.headers.get('x-ratelimit-tier')).toBe('medium');
    expect(Number.isNaN(Date.parse(res.headers.get('x-ratelimit-reset')!))).toBe(false);
  });

  it('an anonymous caller past 30 introspections a minute gets 429 RATE_LIMITED, as for any Medium operation', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await gql(server, '{ __schema { queryType { name } } }');
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expect((await last!.json()).errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', tier: 'medium' });
  });

  it('an anonymous caller past 30 calls a minute gets 429 RATE_LIMITED with Retry-After', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await gql(server, '{ supportedChains { key } }');
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-tier-remaining')).toBe('0');
    const body = await last!.json();
    expect(body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', tier: 'medium', limit: 30 });
  });
});
