import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRequest } from '../helpers/inject-fetch.js';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/** What differs from one call to the next (clock, request id, quota counters), or belongs to the connection. */
const PER_CALL_OR_CONNECTION = /^(date|x-request-id|x-ratelimit-.*|connection|keep-alive|transfer-encoding)$/;

async function seen(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_CALL_OR_CONNECTION.test(name)) headers[name] = value;
  });
  // An error envelope's timestamp differs from one call to the next.
  const body = (await res.text()).replace(/"timestamp":"[^"]+"/, '"timestamp":"…"');
  return { status: res.status, headers, body };
}

/**
 * Tests send their calls in process (test/helpers/inject-fetch.ts) unless the socket is their subject: that is sound
 * only while a call answers the same either way.
 */
describe('the in-process test harness answers what a socket does', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it.each<[string, TestRequest]>([
    ['a REST row', { path: '/api/gas' }],
    ['a 404 envelope', { path: '/api/no-such-route' }],
    ['a refused parameter', { path: '/api/price/not-a-symbol!' }],
    [
      'a GraphQL POST',
      {
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      },
    ],
    ['a body that is not JSON', { method: 'POST', path: '/api/ens/bulk', body: '{names' }],
    [
      'a CORS preflight',
      {
        method: 'OPTIONS',
        path: '/graphql',
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' },
      },
    ],
    ['the OpenAPI document', { path: '/api/openapi.yaml' }],
  ])('%s: the same status, headers and body in process as over a socket', async (_, request) => {
    const { method, path, headers, body } = request;
    const overSocket = await fetch(`${server.url}${path}`, { method, headers, body });
    expect(await seen(await server.request(request))).toEqual(await seen(overSocket));
  });
});
