import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A counted route that answers locally (the price replay), Light tier. */
const COUNTED = '/api/price/ETH';
const DAY = 86_400_000;

/** Test fixture: credits added straight to the store (purchase needs a verified x402 payment, which no API fakes). */
const fundKey = (server: TestServer, keyId: string, amount: number) =>
  server.store.addCredits({
    keyId,
    amount,
    reference: `test-fixture:${keyId}:${amount}:${Math.random()}`,
    now: Date.now(),
  });

async function createKey(server: TestServer, token: string, name = 'backend') {
  const res = await server.post('/api/user/keys', { name }, bearer(token));
  expect(res.status).toBe(200);
  return (await res.json()).key as {
    id: string;
    key: string;
    name: string;
    credits: number;
    dailyLimit: number;
    minuteLimit: number;
  };
}

const del = (server: TestServer, path: string, headers: Record<string, string>) =>
  server.request({ method: 'DELETE', path, headers });

describe('API keys (docs/api-contract.md#api-keys, docs/api-contract.md#states-and-transitions)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '100000', ANONYMOUS_PER_MINUTE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a key is created with a session, shown once with 0 credits and its limits, and listed by prefix only', async () => {
    const session = await signIn(server);
    const created = await createKey(server, session.token);
    expect(created).toMatchObject({ name: 'backend', credits: 0, dailyLimit: 250, minuteLimit: 60 });
    expect(created.key).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);

    const { keys } = await (await server.get('/api/user/keys', bearer(session.token))).json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: created.id, name: 'backend', credits: 0, usageToday: 0, lastUsedAt: null });
    expect(keys[0].prefix).toBe(`${created.key.slice(0, 12)}…`);
    expect(JSON.stringify(keys)).not.toContain(created.key);
  });

  it('the store keeps only a hash of the key', async () => {
    const session = await signIn(server);
    const created = await createKey(server, session.token);
    const record = await server.store.getApiKey(created.id);
    expect(record?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(record)).not.toContain(created.key.slice(12));
  });

  it('limits follow the key, whatever the case of the X-API-Key header name; lists show last use and usage today', async () => {
    const session = await signIn(server);
    const { id, key } = await createKey(server, session.token);
    const firstUse = Date.now();
    for (const header of ['X-API-Key', 'x-api-key', 'X-API-KEY']) {
      const res = await server.get(COUNTED, { [header]: key });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-global-limit')).toBe('250');
    }
    const { keys } = await (await server.get('/api/user/keys', bearer(session.token))).json();
    expect(keys[0]).toMatchObject({ id, usageToday: 3 });
    expect(Date.parse(keys[0].lastUsedAt)).toBeGreaterThanOrEqual(firstUse);
    expect(Date.parse(keys[0].lastUsedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('a key that does not exist is "Invalid API Key": INVALID_API_KEY (401), never an anonymous call', async () => {
    for (const key of [`sk_live_${'A'.repeat(43)}`, 'not-a-key', '']) {
      const res = await server.get(COUNTED, { 'x-api-key': key });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: true,
        code: 'INVALID_API_KEY',
        message: expect.stringContaining('Invalid API Key'),
      });
    }
  });

  it('a bad key or token is a 401 on every route, the always-free ones included (docs/access.md); without one they answer', async () => {
    const badKey = { 'x-api-key': `sk_live_${'B'.repeat(43)}` };
    const badToken = { authorization: 'Bearer not-a-session-token' };
    for (const path of ['/api/health', '/api/gas', '/api/user/credits/pricing', '/ccip/health', '/api/openapi.yaml']) {
      const key = await server.get(path, badKey);
      expect(key.status, path).toBe(401);
      expect(await key.json(), path).toMatchObject({ code: 'INVALID_API_KEY' });
      expect((await server.get(path, badToken)).status, path).toBe(401);
      expect((await server.get(path)).status, path).toBe(200);
    }
  });

  it('rotation keeps the id and the credits, and the previous key is refused at once', async () => {
    const session = await signIn(server);
    const created = await createKey(server, session.token);
    await fundKey(server, created.id, 7);
    const res = await server.post(`/api/user/keys/${created.id}/rotate`, {}, bearer(session.token));
    expect(res.status).toBe(200);
    const rotated = (await res.json()).key;
    expect(rotated.id).toBe(created.id);
    expect(rotated.key).not.toBe(created.key);
    expect(rotated.note).toEqual(expect.any(String));

    expect((await server.get(COUNTED, { 'x-api-key': created.key })).status).toBe(401);
    expect((await server.get(COUNTED, { 'x-api-key': rotated.key })).status).toBe(200);
    const usage = await (await server.get('/api/usage', { 'x-api-key': rotated.key })).json();
    expect(usage).toMatchObject({ tier: 'api_key', credits: { balance: 7, usedToday: 0 } });
  });

  it('deletion revokes the key and destroys its credits', async () => {
    const session = await signIn(server);
    const created = await createKey(server, session.token);
    await fundKey(server, created.id, 5);
    const res = await del(server, `/api/user/keys/${created.id}`, bearer(session.token));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, message: expect.stringMatching(/credits/) });
    expect((await server.get(COUNTED, { 'x-api-key': created.key })).status).toBe(401);
    expect(await server.store.getCredits(created.id)).toBe(0);
    expect((await del(server, `/api/user/keys/${created.id}`, bearer(session.token))).status).toBe(404);
  });

  it("a wallet cannot rotate or delete another wallet's key (404), and key management needs a session (401)", async () => {
    const owner = await signIn(server);
    const other = await signIn(server);
    const { id, key } = await createKey(server, owner.token);
    expect((await server.post(`/api/user/keys/${id}/rotate`, {}, bearer(other.token))).status).toBe(404);
    expect((await del(server, `/api/user/keys/${id}`, bearer(other.token))).status).toBe(404);
    expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);

    const anonymous = await server.post('/api/user/keys', { name: 'x' });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('UNAUTHORIZED');
    // An API key is for server-side calls, not for managing keys.
    expect((await server.get('/api/user/keys', { 'x-api-key': key })).status).toBe(401);
    expect((await server.post('/api/user/keys/not-an-id/rotate', {}, bearer(owner.token))).status).toBe(400);
  });

  it('a wallet holds at most 10 keys (409 CONFLICT)', async () => {
    const session = await signIn(server);
    for (let i = 0; i < 10; i++) await createKey(server, session.token, `key ${i}`);
    const res = await server.post('/api/user/keys', { name: 'one too many' }, bearer(session.token));
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('CONFLICT');
  });

  it('pricing lists the four packages of the contract, and is always free', async () => {
    const res = await server.get('/api/user/credits/pricing');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBeNull();
    expect(await res.json()).toEqual({
      packages: [
        { id: 'credits_100', credits: 100, price: '$0.90', perCall: '$0.009' },
        { id: 'credits_250', credits: 250, price: '$2.00', perCall: '$0.008' },
        { id: 'credits_1000', credits: 1000, price: '$7.00', perCall: '$0.007' },
        { id: 'credits_5000', credits: 5000, price: '$30.00', perCall: '$0.006' },
      ],
    });
  });

  it('a purchase without a verified payment is 402 with the price, and adds no credit', async () => {
    const session = await signIn(server);
    const { id } = await createKey(server, session.token);
    const res = await server.post(
      `/api/user/credits/${id}/purchase`,
      { packageId: 'credits_100' },
      bearer(session.token),
    );
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      x402Version: 1,
      // x402's machine reason (no payment sent); the sentence is in `message`.
      error: 'invalid_payment',
      message: expect.stringContaining('pay it with x402'),
      accepts: [expect.objectContaining({ maxAmountRequired: '900000' })],
      code: 'PAYMENT_REQUIRED',
      priceUSD: '0.90',
      recipient: expect.stringMatching(/^0x/),
    });
    expect(await server.store.getCredits(id)).toBe(0);
    // One rule for the package id: REST and GraphQL refuse an unknown one with the same message.
    const unknownPackage = await server.post(
      `/api/user/credits/${id}/purchase`,
      { packageId: 'credits_7' },
      bearer(session.token),
    );
    expect(unknownPackage.status).toBe(400);
    const { message } = (await unknownPackage.json()) as { message: string };
    expect(message).toMatch(/^parameter packageId: .*credits_100.*credits_5000/);
    const viaGraphql = await server.post(
      '/graphql',
      { query: `mutation { purchaseCredits(id: "${id}", packageId: "credits_7") { balance } }` },
      bearer(session.token),
    );
    const answer = (await viaGraphql.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(answer.errors[0]).toMatchObject({ message, extensions: { code: 'INVALID_PARAMETER' } });
    const stranger = await signIn(server);
    expect(
      (await server.post(`/api/user/credits/${id}/purchase`, { packageId: 'credits_100' }, bearer(stranger.token)))
        .status,
    ).toBe(404);
  });

  it('/api/usage consumes nothing and reports used, limit, remaining, tier and the next midnight UTC', async () => {
    const first = await (await server.get('/api/usage')).json();
    const second = await (await server.get('/api/usage')).json();
    expect(second).toEqual(first);
    expect(first).toMatchObject({ tier: 'anonymous', limit: 100000, credits: null });
    expect(first.remaining).toBe(first.limit - first.used);
    expect(first.resetsAt).toBe(new Date(Math.ceil(Date.now() / DAY) * DAY).toISOString());
    await server.get(COUNTED);
    expect((await (await server.get('/api/usage')).json()).used).toBe(first.used + 1);

    const session = await signIn(server);
    const before = await (await server.get('/api/usage', bearer(session.token))).json();
    await server.get(COUNTED, bearer(session.token));
    const after = await (await server.get('/api/usage', bearer(session.token))).json();
    expect(after).toMatchObject({ tier: 'siwe', limit: 200, used: before.used + 1, remaining: 200 - before.used - 1 });
  });
});

describe('credits past the daily limit (docs/api-contract.md#states-and-transitions)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      API_KEY_DAILY_LIMIT: '2',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('past its daily limit a key with credits pays 1 credit per call; at 0 the call is refused: INSUFFICIENT_CREDITS (402)', async () => {
    const session = await signIn(server);
    const { id, key } = await createKey(server, session.token);
    await fundKey(server, id, 3);
    const statuses: number[] = [];
    const balances: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.get(COUNTED, { 'x-api-key': key });
      statuses.push(res.status);
      balances.push(await server.store.getCredits(id));
      if (i === 5) {
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(await res.json()).toMatchObject({
          error: true,
          code: 'INSUFFICIENT_CREDITS',
          credits: 0,
          tier: 'light',
          limit: 2,
        });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 402]);
    expect(balances).toEqual([3, 3, 2, 1, 0, 0]);
    const usage = await (await server.get('/api/usage', { 'x-api-key': key })).json();
    expect(usage).toMatchObject({
      used: 2,
      limit: 2,
      remaining: 0,
      tier: 'api_key',
      credits: { balance: 0, usedToday: 3 },
    });
  });

  it('a credit pays only for an answer that is charged: a failed call past the daily limit gives its credit back', async () => {
    const session = await signIn(server);
    const { id, key } = await createKey(server, session.token);
    await fundKey(server, id, 2);
    for (let i = 0; i < 2; i++) expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    // Past the daily limit: a call answered with an error is not charged, as an x402 payment is not settled for it.
    const failed = await server.get('/api/price/NOSUCHTOKEN', { 'x-api-key': key });
    expect(failed.status).toBe(404);
    const graphqlError = await server.post(
      '/graphql',
      { query: '{ tokenPrice(symbol: "NOSUCHTOKEN") { price } }' },
      {
        'x-api-key': key,
      },
    );
    expect((await graphqlError.json()).errors).toBeDefined();
    await expect.poll(() => server.store.getCredits(id)).toBe(2);
    expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    expect(await server.store.getCredits(id)).toBe(1);
    const usage = await (await server.get('/api/usage', { 'x-api-key': key })).json();
    expect(usage).toMatchObject({ credits: { balance: 1, usedToday: 1 } });
  });

  it('a key without credits is refused at its daily limit', async () => {
    const session = await signIn(server);
    const { key } = await createKey(server, session.token);
    expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    expect((await server.get(COUNTED, { 'x-api-key': key })).status).toBe(200);
    const refused = await server.get(COUNTED, { 'x-api-key': key });
    expect(refused.status).toBe(402);
    expect((await refused.json()).code).toBe('INSUFFICIENT_CREDITS');
  });
});
