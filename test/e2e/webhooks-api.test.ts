import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let server: TestServer;
let receiver: WebhookReceiver;

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  server.request({
    method,
    path,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startTestServer({ WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_SOURCE_POLL_MS: '300' }),
    startWebhookReceiver(),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.close(), receiver?.close()]);
});

describe('webhooks API', () => {
  it('POST /api/webhooks needs a session or an API key', async () => {
    const res = await server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: true, code: 'UNAUTHORIZED' });
  });

  it('a webhook is created active with a generated secret shown once; a ping arrives signed, and is listed', async () => {
    const { token } = await signIn(server);
    const res = await server.post(
      '/api/webhooks',
      { url: receiver.url, events: ['ens.transfer', 'ens.record_changed'], filters: { names: ['*.eth'] } },
      bearer(token),
    );
    expect(res.status).toBe(200);
    const created = (await res.json()) as { id: string; secret: string; status: string; createdAt: string };
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['ens.transfer', 'ens.record_changed'],
      status: 'active',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(created.createdAt)).toBeGreaterThan(0);

    const got = (await (await server.get(`/api/webhooks/${created.id}`, bearer(token))).json()) as object;
    expect(got).toMatchObject({ id: created.id, filters: { names: ['*.eth'] } });
    expect(got).toHaveProperty('secret', null);

    const test = await server.post(`/api/webhooks/${created.id}/test`, {}, bearer(token));
    expect(test.status).toBe(200);
    const queued = (await test.json()) as { delivery: { id: string; eventId: string } };
    const [ping] = await receiver.waitFor((d) => d.json.id === queued.delivery.eventId);
    expect(ping!.json).toMatchObject({ type: 'ping', data: { webhookId: created.id } });
    expect(ping!.headers['webhook-id']).toBe(queued.delivery.eventId);
    verifyDelivery(ping!, created.secret);

    await expect
      .poll(async () => {
        const page = (await (await server.get(`/api/webhooks/${created.id}/deliveries`, bearer(token))).json()) as {
          deliveries: { status: string; attempts: number; responseCode: number; latencyMs: number }[];
        };
        return page.deliveries[0];
      })
      .toMatchObject({ status: 'delivered', attempts: 1, responseCode: 200 });

    const list = (await (await server.get('/api/webhooks', bearer(token))).json()) as Record<string, unknown>;
    expect(list).toMatchObject({ count: 1, plan: { name: 'free', webhooks: 1, webhookLimit: 1, eventLimit: 1000 } });
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it('a receiver answering 500 then 200 gets the retry, with the same event id and body', async () => {
    const { token } = await signIn(server);
    const secret = 'my-own-secret-of-some-length';
    const created = (await (
      await server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'], secret }, bearer(token))
    ).json()) as { id: string; secret?: string };
    expect(created.secret).toBeUndefined();
    receiver.statuses.push(500);
    const queued = (await (await server.post(`/api/webhooks/${created.id}/test`, {}, bearer(token))).json()) as {
      delivery: { eventId: string };
    };
    const [first, second] = await receiver.waitFor((d) => d.json.id === queued.delivery.eventId, 2);
    expect(second!.body).toBe(first!.body);
    verifyDelivery(second!, secret);
    await expect
      .poll(async () => {
        const page = (await (await server.get(`/api/webhooks/${created.id}/deliveries`, bearer(token))).json()) as {
          deliveries: { status: string; attempts: number; responseCode: number }[];
        };
        return page.deliveries[0];
      })
      .toMatchObject({ status: 'delivered', attempts: 2, responseCode: 200 });
  });

  it('PATCH changes status and filters, a paused webhook takes no ping, DELETE removes it; redeliver sends again', async () => {
    const { token } = await signIn(server);
    const { id } = (await (
      await server.post('/api/webhooks', { url: receiver.url, events: ['ens.expired'] }, bearer(token))
    ).json()) as { id: string };
    const paused = await call('PATCH', `/api/webhooks/${id}`, bearer(token), { status: 'paused' });
    expect(await paused.json()).toMatchObject({ id, status: 'paused' });
    expect((await server.post(`/api/webhooks/${id}/test`, {}, bearer(token))).status).toBe(409);
    const resumed = await call('PATCH', `/api/webhooks/${id}`, bearer(token), {
      status: 'active',
      events: ['wallet.transfer'],
      filters: { addresses: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] },
    });
    expect(await resumed.json()).toMatchObject({
      status: 'active',
      events: ['wallet.transfer'],
      filters: { addresses: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'] },
    });
    const queued = (await (await server.post(`/api/webhooks/${id}/test`, {}, bearer(token))).json()) as {
      delivery: { id: string; eventId: string };
    };
    await receiver.waitFor((d) => d.json.id === queued.delivery.eventId);
    await expect
      .poll(
        async () =>
          (await (await server.get(`/api/webhooks/${id}/deliveries`, bearer(token))).json()).deliveries[0].status,
      )
      .toBe('delivered');
    const again = await server.post(
      `/api/webhooks/${id}/deliveries/${queued.delivery.id}/redeliver`,
      {},
      bearer(token),
    );
    expect(again.status).toBe(200);
    await receiver.waitFor((d) => d.json.id === queued.delivery.eventId, 2);
    expect((await call('DELETE', `/api/webhooks/${id}`, bearer(token))).status).toBe(200);
    expect((await server.get(`/api/webhooks/${id}`, bearer(token))).status).toBe(404);
  });

  it("another wallet's webhook is not found, and bad input is a 400 with the envelope", async () => {
    const owner = await signIn(server);
    const other = await signIn(server);
    const { id } = (await (
      await server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] }, bearer(owner.token))
    ).json()) as { id: string };
    expect((await server.get(`/api/webhooks/${id}`, bearer(other.token))).status).toBe(404);
    expect((await call('DELETE', `/api/webhooks/${id}`, bearer(other.token))).status).toBe(404);
    const bad: [string, unknown][] = [
      ['POST', { url: 'ftp://x.example', events: ['ens.transfer'] }],
      ['POST', { url: receiver.url, events: [] }],
      ['POST', { url: receiver.url, events: ['ens.nope'] }],
      ['POST', { url: receiver.url, events: ['wallet.transfer'] }],
      ['POST', { url: receiver.url, events: ['ens.transfer'], filters: { names: ['not a name!'] } }],
      ['POST', { url: receiver.url, events: ['price.alert'], filters: { prices: [{ symbol: 'ETH' }] } }],
      // A symbol the token table does not know: the price detector could never quote it.
      ['POST', { url: receiver.url, events: ['price.alert'], filters: { prices: [{ symbol: 'NOPE', above: 1 }] } }],
      ['POST', { url: receiver.url, events: ['farcaster.cast'], filters: { fids: [2 ** 31] } }],
      ['POST', { url: receiver.url, events: ['ens.transfer'], secret: 'short' }],
      ['POST', 'not json'],
    ];
    for (const [, body] of bad) {
      const res = await server.post('/api/webhooks', body, bearer(owner.token));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    }
    expect((await server.get('/api/webhooks/not-a-uuid', bearer(owner.token))).status).toBe(400);
    expect((await call('PATCH', `/api/webhooks/${id}`, bearer(owner.token), {})).status).toBe(400);
    expect((await call('PATCH', `/api/webhooks/${id}`, bearer(owner.token), { status: 'disabled' })).status).toBe(400);
    const badLimit = await server.get(`/api/webhooks/${id}/deliveries?limit=0`, bearer(owner.token));
    expect(badLimit.status).toBe(400);
    expect((await badLimit.json()).message).toBe('parameter limit: must be an integer from 1 to 100');
  });

  it('plan limits: Free holds 1 webhook (402 with a clear message), Pro 10', async () => {
    const { token, address } = await signIn(server);
    const make = () => server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] }, bearer(token));
    expect((await make()).status).toBe(200);
    const refused = await make();
    expect(refused.status).toBe(402);
    expect((await refused.json()).message).toMatch(/free plan allows 1 webhook/);
    await server.store.setWebhookPlan({ wallet: address, plan: 'pro' });
    // The write tier allows 5 calls a minute: eight of the ten are made in the store directly.
    for (let i = 0; i < 8; i++) {
      const webhook = { id: randomUUID(), wallet: address, url: receiver.url, events: ['ens.transfer'], filters: {} };
      await server.store.createWebhook({
        webhook: { ...webhook, secret: 'whsec_x', createdAt: Date.now() },
        maxWebhooks: 10,
      });
    }
    expect((await make()).status).toBe(200);
    const eleventh = await make();
    expect(eleventh.status).toBe(402);
    expect((await eleventh.json()).message).toMatch(/pro plan allows 10 webhooks/);
  });

  it('price.alert: a threshold the prices source already crossed fires once on its refresh, signed', async () => {
    const { token } = await signIn(server);
    const res = await server.post(
      '/api/webhooks',
      { url: receiver.url, events: ['price.alert'], filters: { prices: [{ symbol: 'eth', above: 1 }] } },
      bearer(token),
    );
    const { id, secret } = (await res.json()) as { id: string; secret: string };
    const [alert] = await receiver.waitFor(
      (d) =>
        d.json.type === 'price.alert' && d.headers['webhook-id'] === d.json.id && d.body.includes(`"threshold":1,`),
    );
    expect(alert!.json.data).toMatchObject({ symbol: 'ETH', threshold: 1, direction: 'above', previousPrice: null });
    expect(alert!.json.data.price).toBeGreaterThan(1);
    verifyDelivery(alert!, secret);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const page = (await (await server.get(`/api/webhooks/${id}/deliveries`, bearer(token))).json()) as {
      deliveries: unknown[];
    };
    expect(page.deliveries).toHaveLength(1);
  });

  it('GraphQL creates and lists webhooks from the same services', async () => {
    const { token } = await signIn(server);
    const res = await server.post(
      '/graphql',
      {
        query: `mutation { createWebhook(url: "${receiver.url}", events: ["ens.expiring"], filters: { names: ["alice.eth"] }) { id status secret } }`,
      },
      bearer(token),
    );
    const body = (await res.json()) as { data: { createWebhook: { id: string; status: string; secret: string } } };
    expect(body.data.createWebhook).toMatchObject({ status: 'active' });
    for (const query of [
      `{ webhookDeliveries(id: "${body.data.createWebhook.id}", limit: -1) { limit } }`,
      `mutation { updateWebhook(id: "${body.data.createWebhook.id}", filters: { prices: [{ symbol: "ETH", above: null, below: null }] }) { id } }`,
      `mutation { createWebhook(url: "${receiver.url}", events: ["ens.nope"]) { id } }`,
    ]) {
      const bad = await server.post('/graphql', { query }, bearer(token));
      expect(bad.status, query).toBeLessThan(500);
      const answer = (await bad.json()) as { errors: { extensions: { code: string } }[] };
      expect(answer.errors[0]!.extensions.code, query).toBe('INVALID_PARAMETER');
    }
    // An update bad in its id and its body: both surfaces name the id, REST's path before its body.
    const restBoth = await call('PATCH', '/api/webhooks/not-a-uuid', bearer(token), { status: 'disabled' });
    const graphqlBoth = await server.post(
      '/graphql',
      { query: 'mutation { updateWebhook(id: "not-a-uuid", status: "disabled") { id } }' },
      bearer(token),
    );
    const idMessage = 'parameter id: must be a webhook id (UUID)';
    expect(((await restBoth.json()) as { message: string }).message).toBe(idMessage);
    expect(((await graphqlBoth.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(idMessage);
    const listed = await server.post(
      '/graphql',
      { query: '{ webhooks { count webhooks { id events } } }' },
      bearer(token),
    );
    expect(((await listed.json()) as { data: unknown }).data).toEqual({
      webhooks: { count: 1, webhooks: [{ id: body.data.createWebhook.id, events: ['ens.expiring'] }] },
    });
  });
});

describe('webhook URLs with WEBHOOK_ALLOW_LOCAL_URLS off', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ WEBHOOK_ALLOW_LOCAL_URLS: 'false' });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('private, loopback and link-local hosts and plain http are refused with 400 (test/unit/webhook-url.test.ts: each range)', async () => {
    const { token } = await signIn(strict);
    // Four of them: the write tier allows 5 calls a minute.
    for (const url of [receiver.url, 'https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook']) {
      const res = await strict.post('/api/webhooks', { url, events: ['ens.transfer'] }, bearer(token));
      expect(res.status, url).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_PARAMETER' });
    }
  });
});
