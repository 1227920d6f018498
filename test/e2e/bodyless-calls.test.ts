import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A call as many HTTP clients send it (axios, a fetch wrapper with default headers): `content-type:
 * application/json` and no body at all. Over a socket: the subject is how such a client frames the request.
 */
const bodyless = (server: TestServer, method: string, path: string, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers } });

describe('body-less calls that carry a JSON content type reach their route', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SIWE_PER_MINUTE_LIMIT: '1000', SIWE_DAILY_LIMIT: '10000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('DELETE an API key and DELETE a webhook answer 200, not 400 "Body cannot be empty"', async () => {
    const { token } = await signIn(server);
    const key = (await (await server.post('/api/user/keys', { name: 'to-delete' }, bearer(token))).json()).key;
    const deletedKey = await bodyless(server, 'DELETE', `/api/user/keys/${key.id}`, bearer(token));
    expect(deletedKey.status, await deletedKey.clone().text()).toBe(200);
    expect(await deletedKey.json()).toMatchObject({ success: true });

    const hook = { url: 'https://hooks.example.org/ens', events: ['ens.transfer'] };
    const webhook = await (await server.post('/api/webhooks', hook, bearer(token))).json();
    const deletedHook = await bodyless(server, 'DELETE', `/api/webhooks/${webhook.id}`, bearer(token));
    expect(deletedHook.status, await deletedHook.clone().text()).toBe(200);
  });

  it('SIWE refresh and logout answer 200', async () => {
    const { token } = await signIn(server);
    const refreshed = await bodyless(server, 'POST', '/api/auth/siwe/refresh', bearer(token));
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const { token: next } = await refreshed.json();
    const logout = await bodyless(server, 'POST', '/api/auth/siwe/logout', bearer(next));
    expect(logout.status, await logout.clone().text()).toBe(200);
    expect(await logout.json()).toMatchObject({ success: true });
  });

  it('a route that takes a body still refuses a missing one, in its own words (400 INVALID_PARAMETER)', async () => {
    const res = await bodyless(server, 'POST', '/api/ens/bulk', {});
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_PARAMETER', message: 'body must be a JSON object' });
    // A body that is there but not JSON is still refused.
    const bad = await server.post('/api/ens/bulk', '{names');
    expect(bad.status).toBe(400);
  });
});
