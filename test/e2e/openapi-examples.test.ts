import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { parse as parseYaml } from 'yaml';
import type {
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  SecurityRequirement,
} from '../../rest-compat/openapi/openapi-types.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** One documented operation, called as Swagger UI's try-it-out or Prism calls it: with the document's examples. */
interface Documented {
  method: string;
  path: string;
  operation: OperationObject;
}

/**
 * Path parameters that name the caller's own resources (an API key, a webhook, a delivery): no fresh server holds
 * one, whatever the example. The test creates them with the documented create examples and calls with their ids.
 */
const OWN_RESOURCES: Record<string, Record<string, 'key' | 'webhook' | 'delivery'>> = {
  '/api/user/keys/{id}/rotate': { id: 'key' },
  '/api/user/keys/{id}': { id: 'key' },
  '/api/user/credits/{id}/purchase': { id: 'key' },
  '/api/webhooks/{id}': { id: 'webhook' },
  '/api/webhooks/{id}/test': { id: 'webhook' },
  '/api/webhooks/{id}/deliveries': { id: 'webhook' },
  '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver': { id: 'webhook', deliveryId: 'delivery' },
};

/** A signed SIWE message is single-use by design (its nonce): the example shows the shape, and is refused as stale. */
const SIGNED_ONCE = new Set(['POST /api/auth/siwe/verify', 'POST /api/auth/verify']);

/** Run first: what the others read (the caller's key and webhook), in this order. */
const FIRST = [
  'POST /api/user/keys',
  'POST /api/webhooks',
  'POST /api/webhooks/{id}/test',
  'POST /api/subnames/{parent_name}',
  'POST /api/ccip/register',
];
/** Run last: they change or end what the others use (a paused or deleted webhook, a rotated or deleted key, the session). */
const LAST = [
  'PATCH /api/webhooks/{id}',
  'DELETE /api/webhooks/{id}',
  'POST /api/user/keys/{id}/rotate',
  'DELETE /api/user/keys/{id}',
  'POST /api/auth/siwe/refresh',
  'POST /api/auth/siwe/logout',
];

const key = (d: Documented) => `${d.method.toUpperCase()} ${d.path}`;
function order(d: Documented): number {
  const first = FIRST.indexOf(key(d));
  if (first >= 0) return first - FIRST.length;
  const last = LAST.indexOf(key(d));
  return last >= 0 ? 1000 + last : 0;
}

/** Whether the operation can be called with no credentials (`security` empty, or listing `{}`). */
const anonymous = (security: SecurityRequirement[] | undefined) =>
  security === undefined || security.length === 0 || security.some((s) => Object.keys(s).length === 0);

describe('every documented OpenAPI example answers 2xx on the embedded default', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  let session: Record<string, string>;
  const made: Record<'key' | 'webhook' | 'delivery', string | undefined> = {
    key: undefined,
    webhook: undefined,
    delivery: undefined,
  };

  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      SIWE_DAILY_LIMIT: '100000',
      SIWE_PER_MINUTE_LIMIT: '100000',
    });
    document = parseYaml(await (await server.get('/api/openapi.yaml')).text()) as OpenApiDocument;
    session = bearer((await signIn(server)).token);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The request the operation's examples make, with the credentials its `security` asks for. */
  async function call(d: Documented): Promise<Response> {
    const params = (d.operation.parameters ?? []) as ParameterObject[];
    const own = OWN_RESOURCES[d.path] ?? {};
    const path = d.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const resource = own[name];
      const value = resource ? made[resource] : params.find((p) => p.in === 'path' && p.name === name)?.example;
      if (value === undefined) throw new Error(`${key(d)}: no example for path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const p of params) if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example));
    const body = d.operation.requestBody?.content['application/json']?.example;
    if (d.operation.requestBody?.required && body === undefined) throw new Error(`${key(d)}: no body example`);
    // Refresh and logout end what they are given: each gets a session of its own.
    const credentials = anonymous(d.operation.security)
      ? {}
      : /refresh|logout/.test(d.path)
        ? bearer((await signIn(server)).token)
        : session;
    const search = query.toString();
    const target = `${path}${search ? `?${search}` : ''}`;
    const init = {
      method: d.method.toUpperCase(),
      headers: { ...credentials, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    // A credit purchase is paid with x402 (x402-fetch pays the 402's offer from a dev account on the local Base chain).
    if (d.path.endsWith('/purchase'))
      return wrapFetchV1(fetch, getDevAccounts()[8]!, parseUnits('1', 6))(`${server.url}${target}`, init);
    return server.request({ path: target, ...init });
  }

  it('an operation whose security does not list {} refuses an anonymous call with 401, as it declares', async () => {
    const refused: string[] = [];
    const needing = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => !anonymous((op as OperationObject).security))
        .map(([method, op]) => ({ method, path, operation: op as OperationObject })),
    );
    expect(needing.length).toBeGreaterThan(0);
    for (const d of needing) {
      const params = (d.operation.parameters ?? []) as ParameterObject[];
      const path = d.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(String(params.find((p) => p.in === 'path' && p.name === name)?.example)),
      );
      const body = d.operation.requestBody?.content['application/json']?.example;
      const res = await server.request({
        path,
        method: d.method.toUpperCase(),
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
      if (res.status !== 401) refused.push(`${key(d)} → ${res.status}`);
    }
    expect(refused).toEqual([]);
  });

  it('each operation called with its examples answers 2xx (a signed sign-in message, single-use, is refused as stale)', async () => {
    const operations: Documented[] = [];
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        operations.push({ method, path, operation: operation as OperationObject });
    operations.sort((a, b) => order(a) - order(b));

    const answered: string[] = [];
    const failed: string[] = [];
    for (const d of operations) {
      const res = await call(d);
      const text = await res.text();
      if (SIGNED_ONCE.has(key(d))) {
        // Well-formed input (no 400): only its nonce and signature are not this server's.
        expect(res.status, `${key(d)} ${text}`).toBe(401);
        continue;
      }
      if (res.status < 200 || res.status > 299) {
        failed.push(`${key(d)} → ${res.status} ${text.slice(0, 160)}`);
        continue;
      }
      answered.push(key(d));
      const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
      if (key(d) === 'POST /api/user/keys') made.key = json.key.id;
      if (key(d) === 'POST /api/webhooks') made.webhook = json.id;
      if (key(d) === 'POST /api/webhooks/{id}/test') made.delivery = json.delivery.id;
    }
    expect(failed).toEqual([]);
    expect(answered.length).toBe(operations.length - SIGNED_ONCE.size);
  }, 300_000);
});
