import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, http, parseEther, publicActions } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { startServerProcess } from '../helpers/server-process.js';
import { bearer, type SiweServer, signIn } from '../helpers/siwe-wallet.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const REDIS_URL = TEST_REDIS_URL;

const client = (url: string): SiweServer => ({
  get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
  post: (path, body, headers = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
});

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('webhook deliveries are durable', () => {
  it('kill -9 with deliveries pending: after a restart on the same store every one is delivered, none lost', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'api-webhooks-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    receiver.fallbackStatus = 503;
    // A failed attempt is retried 4 to 6 s later: the kill below lands while every delivery waits for its retry with no
    // attempt in flight, so the restart does not wait out a lease (30 s) that a kill mid-attempt would leave held. That
    // a lease held by a killed instance runs out and its delivery is claimed again is the store contract's test.
    const env = { WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '5000' };

    const first = await startServerProcess({ dataDir, env });
    cleanups.push(() => first.child.kill('SIGKILL'));
    const api = client(first.url);
    const { token } = await signIn(api);
    const created = await api.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] }, bearer(token));
    const { id } = (await created.json()) as { id: string };
    const eventIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api.post(`/api/webhooks/${id}/test`, {}, bearer(token));
      eventIds.push(((await res.json()) as { delivery: { eventId: string } }).delivery.eventId);
    }
    // Every delivery has been tried, refused and recorded so (attempts 1), and is waiting for its retry: then SIGKILL.
    for (const eventId of eventIds) await receiver.waitFor((d) => d.json.id === eventId);
    const attemptsBefore = async () => {
      const res = await api.get(`/api/webhooks/${id}/deliveries`, bearer(token));
      return ((await res.json()) as { deliveries: { attempts: number }[] }).deliveries.map((d) => d.attempts);
    };
    await expect.poll(attemptsBefore, { timeout: 30_000, interval: 50 }).toEqual(Array(6).fill(1));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const refusedBefore = receiver.received.length;

    receiver.fallbackStatus = 200;
    const second = await startServerProcess({ dataDir, env });
    cleanups.push(() => second.child.kill('SIGKILL'));
    // Each retry comes due within 6 s of its refusal; a lease held at the kill (not meant here) would run out in 30 s.
    const delivered = new Set<string>();
    const deadline = Date.now() + 45_000;
    while (delivered.size < eventIds.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const d of receiver.received.slice(refusedBefore)) delivered.add(d.json.id);
    }
    expect([...delivered].sort()).toEqual([...eventIds].sort());
    const again = client(second.url);
    const session = await signIn(again);
    expect((await again.get(`/api/webhooks/${id}`, bearer(session.token))).status).toBe(404);
    const statuses = async () => {
      const res = await again.get(`/api/webhooks/${id}/deliveries`, bearer(token));
      return ((await res.json()) as { deliveries: { status: string; attempts: number }[] }).deliveries;
    };
    await expect
      .poll(async () => (await statuses()).map((d) => d.status), { timeout: 45_000, interval: 200 })
      .toEqual(Array(6).fill('delivered'));
    const page = { deliveries: await statuses() };
    // An attempt cut off by the kill is not recorded; every delivery was refused at least once before it.
    for (const d of page.deliveries) expect(d.attempts).toBeGreaterThanOrEqual(1);
  }, 400_000);

  it('two instances on one Redis, watching one chain: each event is delivered once', async () => {
    const prefix = testKeyPrefix('webhooks');
    cleanups.push(() => deleteKeysUnder(REDIS_URL, prefix).then(() => undefined));
    const receiver: WebhookReceiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    // b's live Ethereum makes its configuration live: both name the secrets a live one needs, the same on each.
    const shared = { REDIS_URL, WEBHOOK_POLL_MS: '100', ...LIVE_SECRETS };
    const a: TestServer = await startTestServer(shared, { storePrefix: prefix });
    cleanups.push(() => a.close());
    // The second instance reads the first one's chain as its live Ethereum RPC: both detect the same events.
    const b: TestServer = await startTestServer(
      { ...shared, ETH_RPC_URL: a.localChain!.rpcUrl, WEBHOOK_ALLOW_LOCAL_URLS: 'true', WEBHOOK_CONFIRMATIONS: '0' },
      { storePrefix: prefix },
    );
    cleanups.push(() => b.close());

    const [, , bob, , , , erin] = getDevAccounts();
    const { token } = await signIn(a);
    const created = await b.post(
      '/api/webhooks',
      { url: receiver.url, events: ['wallet.transfer'], filters: { addresses: [bob!.address] } },
      bearer(token),
    );
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    // Both detectors set the shared cursor on their first step with a subscriber.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const wallet = createWalletClient({ chain: mainnet, transport: http(a.localChain!.rpcUrl) }).extend(publicActions);
    const pings: string[] = [];
    for (let i = 0; i < 4; i++) {
      const hash = await wallet.sendTransaction({ account: bob!, to: erin!.address, value: parseEther('0.01') });
      await wallet.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      const via = i % 2 === 0 ? a : b;
      const ping = await via.post(`/api/webhooks/${id}/test`, {}, bearer(token));
      pings.push(((await ping.json()) as { delivery: { eventId: string } }).delivery.eventId);
    }
    await receiver.waitFor((d) => d.json.type === 'wallet.transfer', 4);
    await receiver.waitFor((d) => pings.includes(d.json.id), 4);
    // Time for a duplicate to show up, if either instance were to send one.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const ids = receiver.received.map((d) => d.json.id);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
  }, 120_000);
});
