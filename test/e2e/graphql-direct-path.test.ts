import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A plain POST of a valid query is admitted, run and (when it has data and no errors) answered by the direct path of
 * src/http/graphql-route.ts; the same request with an empty `extensions` object goes through Apollo Server's whole
 * pipeline. Both must answer the same status, the same headers and the same bytes.
 */
async function post(server: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const kept: Record<string, string> = {};
  // What differs from one call to the next: the clock, the request id and the quota counters.
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id' && !name.startsWith('x-ratelimit-')) kept[name] = value;
  });
  const rateLimited = [...res.headers.keys()].filter((name) => name.startsWith('x-ratelimit-')).sort();
  return { status: res.status, headers: kept, rateLimited, body: await res.text() };
}

describe('/graphql: the direct path answers what Apollo Server answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it.each([
    ['the smallest query', { query: '{ __typename }' }, {}],
    ['a free root field', { query: '{ gasPrices { chain baseFee standard { maxFeePerGas } } }' }, {}],
    ['a counted query', { query: '{ gasPrices { chain } supportedChains { key id } }' }, {}],
    [
      'variables',
      { query: 'query ($s: String!) { tokenPrice(symbol: $s) { symbol price } }', variables: { s: 'ETH' } },
      {},
    ],
    [
      'an operation picked by name',
      { query: 'query A { __typename } query B { supportedChains { key } }', operationName: 'B' },
      {},
    ],
    [
      'Accept: application/graphql-response+json',
      { query: '{ __typename }' },
      { accept: 'application/graphql-response+json' },
    ],
    [
      'a field error (run once, rendered by Apollo)',
      { query: '{ ensResolve(name: "nobody-here.eth") { name address } }' },
      {},
    ],
    [
      'variables that do not coerce',
      { query: 'query ($s: String!) { tokenPrice(symbol: $s) { symbol } }', variables: { s: 7 } },
      {},
    ],
    ['a document that does not validate', { query: '{ noSuchField }' }, {}],
  ])('%s', async (_, body, headers) => {
    const direct = await post(server, body, headers);
    const throughApollo = await post(server, { ...body, extensions: {} }, headers);
    expect(direct).toEqual(throughApollo);
  });
});
