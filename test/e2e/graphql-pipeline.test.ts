import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Every /graphql request goes through one pipeline (src/http/graphql-pipeline.ts): how a request is sent (a plain
 * POST, a POST with an empty `extensions` object, a GET) changes nothing in its answer.
 */
async function send(
  server: TestServer,
  init: { method: 'GET' | 'POST'; body: Record<string, unknown> },
  accept?: string,
) {
  const headers: Record<string, string> = accept ? { accept } : {};
  const res =
    init.method === 'POST'
      ? await server.post('/graphql', init.body, headers)
      : await server.get(
          `/graphql?${new URLSearchParams(
            Object.entries(init.body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          )}`,
          headers,
        );
  const kept: Record<string, string> = {};
  // What differs from one call to the next: the clock, the request id and the quota counters.
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id' && !name.startsWith('x-ratelimit-')) kept[name] = value;
  });
  const rateLimited = [...res.headers.keys()].filter((name) => name.startsWith('x-ratelimit-')).sort();
  return { status: res.status, headers: kept, rateLimited, body: await res.text() };
}

describe('/graphql: one pipeline, whichever way a request is sent', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it.each([
    ['the smallest query', { query: '{ __typename }' }, undefined],
    ['a free root field', { query: '{ gasPrices { chain baseFee standard { maxFeePerGas } } }' }, undefined],
    ['a counted query', { query: '{ gasPrices { chain } supportedChains { key id } }' }, undefined],
    [
      'variables',
      { query: 'query ($s: String!) { tokenPrice(symbol: $s) { symbol price } }', variables: { s: 'ETH' } },
      undefined,
    ],
    [
      'an operation picked by name',
      { query: 'query A { __typename } query B { supportedChains { key } }', operationName: 'B' },
      undefined,
    ],
    ['Accept: application/graphql-response+json', { query: '{ __typename }' }, 'application/graphql-response+json'],
    ['a field error', { query: '{ ensResolve(name: "nobody-here.eth") { name address } }' }, undefined],
    [
      'variables that do not coerce',
      { query: 'query ($s: String!) { tokenPrice(symbol: $s) { symbol } }', variables: { s: 7 } },
      undefined,
    ],
    ['a document that does not validate', { query: '{ noSuchField }' }, undefined],
  ])('%s: the same answer by POST, by POST with empty extensions and by GET', async (_, body, accept) => {
    const plain = await send(server, { method: 'POST', body }, accept);
    expect(await send(server, { method: 'POST', body: { ...body, extensions: {} } }, accept)).toEqual(plain);
    const byGet = await send(server, { method: 'GET', body }, accept);
    expect(byGet).toEqual(plain);
  });

  it("a body that is not JSON is a 400 in GraphQL's error shape (BAD_REQUEST), not the REST envelope", async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await server.post('/graphql', '{"query": "{ __typename }"', { accept });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        errors: [{ message: expect.stringContaining('not valid JSON'), extensions: { code: 'BAD_REQUEST' } }],
      });
    }
  });

  it("a body too large is a 413 in GraphQL's error shape too", async () => {
    const res = await server.post('/graphql', { query: `{ __typename } # ${'x'.repeat(2 * 1024 * 1024)}` });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
  });

  it('a document that makes the server parse it is counted against its caller (Medium) even when it does not run', async () => {
    const invalid = await server.post('/graphql', { query: '{ a' });
    expect(invalid.status).toBe(200);
    expect(invalid.headers.get('x-ratelimit-tier')).toBe('medium');
    expect((await invalid.json()).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const next = await server.post('/graphql', { query: '{ noSuchField }' });
    expect(Number(next.headers.get('x-ratelimit-tier-remaining'))).toBe(
      Number(invalid.headers.get('x-ratelimit-tier-remaining')) - 1,
    );
  });
});
