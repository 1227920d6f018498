import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteRow } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { parseRawAnswer, rawConnection } from '../helpers/raw-http.js';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/** Values a careless or hostile caller sends: unicode, separators, encodings, huge and empty strings. */
const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '%',
    '%00',
    '%zz',
    '\u0000',
    '0x',
    '0xZZ',
    '-1',
    '1e309',
    'NaN',
    '[]',
    '{}',
    'null',
    '🦄',
  ),
  fc.constantFrom('a'.repeat(5000), `0x${'f'.repeat(4096)}`, 'ethereum,'.repeat(300)),
);

/** A path segment as it can travel on the wire: usually encoded, sometimes raw and malformed. */
const pathSegment = fc
  .oneof(
    nastyString.map((s) => encodeURIComponent(s)),
    fc.constantFrom('%', '%E0%A4%A', '%2F..%2F', '..%252F'),
  )
  // fetch resolves a dot segment ('..', '%2e%2e') before sending: the request would target another route.
  .filter((s) => !/^(?:\.|%2e){1,2}$/i.test(s));

const queryParams = (row: RouteRow) => {
  const known = Object.keys(row.params?.query?.shape ?? {});
  const key = fc.oneof(fc.constantFrom(...(known.length ? known : ['x'])), fc.string({ maxLength: 10 }));
  return fc.array(fc.tuple(key, nastyString), { maxLength: 4 });
};

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ type: 'application/json', text: JSON.stringify(v) })),
  nastyString.map((text) => ({ type: 'application/json', text })),
  nastyString.map((text) => ({ type: 'text/plain', text })),
  fc.constant({ type: 'application/json', text: '{"a":' }),
);

function urlFor(row: RouteRow, segments: string[], query: [string, string][]): string {
  let i = 0;
  const path = row.path.replace(/\{[^}]+\}/g, () => segments[i++] ?? '');
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const isCcip = (row: RouteRow) => row.envelope === 'ccip' || row.path.startsWith('/ccip');

describe('bad input never yields a 5xx: every route of the table answers a 4xx with the envelope', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });

  for (const row of ROUTE_TABLE.rows) {
    const paramCount = (row.path.match(/\{[^}]+\}/g) ?? []).length;
    it(`${row.method} ${row.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: paramCount, maxLength: paramCount }),
          queryParams(row),
          body,
          async (segments, query, payload) => {
            const hasBody = row.method !== 'GET';
            // In process (fastify's inject): the routing, parsing, validation and access code a socket reaches,
            // without a TCP connection per case. What only Node's HTTP parser refuses is tested over a socket below.
            const res = await server.app.inject({
              method: row.method,
              url: urlFor(row, segments, query),
              headers: hasBody ? { 'content-type': payload.type } : {},
              ...(hasBody ? { payload: payload.text } : {}),
            });
            const text = res.body;
            expect(res.statusCode, `${res.statusCode} ${text.slice(0, 300)}`).toBeLessThan(500);
            if (res.statusCode >= 400) {
              const envelope = JSON.parse(text);
              if (isCcip(row)) {
                expect(envelope).toMatchObject({
                  error: expect.any(String),
                  code: expect.any(String),
                  message: expect.any(String),
                });
              } else {
                expect(envelope).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String) });
                expect(Number.isNaN(Date.parse(envelope.timestamp))).toBe(false);
              }
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it("a URL too large for Node's parser is a 431 in the envelope of its route: ERC-3668's on /ccip, the full one on /api", async () => {
    const huge = 'a'.repeat(20_000);
    const ccip = await fetch(`${server.url}/ccip/0x${'1'.repeat(40)}/0x${huge}.json`);
    expect(ccip.status).toBe(431);
    expect(await ccip.json()).toEqual({
      error: 'request URL or headers are too large',
      code: 'INVALID_PARAMETER',
      message: 'request URL or headers are too large',
    });
    const api = await fetch(`${server.url}/api/ens/resolve/${huge}.eth`);
    expect(api.status).toBe(431);
    expect(await api.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER', timestamp: expect.any(String) });
  });

  it('answers refused before a route runs (bad percent-encoding 400, oversized 431) carry X-Request-Id and the security headers; a HEAD gets no body', async () => {
    const securityHeaders = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    };
    const badUrl = await fetch(`${server.url}/api/price/%E0%A4%A`);
    expect(badUrl.status).toBe(400);
    expect(Object.fromEntries(badUrl.headers)).toMatchObject(securityHeaders);
    expect(badUrl.headers.get('x-request-id')).toMatch(/\S/);
    expect(await badUrl.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });

    const huge = `X-Padding: ${'a'.repeat(20_000)}\r\n`;
    const get = parseRawAnswer(
      await rawConnection(server.url, `GET /api/gas HTTP/1.1\r\nHost: localhost\r\n${huge}\r\n`).closed,
    );
    expect(get.status).toBe(431);
    expect(get.headers).toMatchObject(securityHeaders);
    expect(get.headers['x-request-id']).toMatch(/\S/);
    expect(JSON.parse(get.body)).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    const head = parseRawAnswer(
      await rawConnection(server.url, `HEAD /api/gas HTTP/1.1\r\nHost: localhost\r\n${huge}\r\n`).closed,
    );
    expect(head.status).toBe(431);
    expect(head.headers).toMatchObject(securityHeaders);
    expect(head.body).toBe('');
  });

  it('a persisted query whose hash does not match its query is a 400 that says BAD_REQUEST, not INTERNAL_SERVER_ERROR', async () => {
    const res = await server.post('/graphql', {
      query: '{ supportedChains { key } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      errors: [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }],
    });
  });
});
