import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_POLICY, startDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const DAY_MS = 86_400_000;

let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // The server's own worker tries each delivery when it is recorded and then polls only once a minute: the retry here
  // is made by a second instance whose clock is 3 days ahead.
  [server, receiver] = await Promise.all([
    startTestServer({ WEBHOOK_POLL_MS: '60000', WEBHOOK_RETRY_BASE_MS: '200' }),
    startWebhookReceiver(),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.close(), receiver?.close()]);
});

/** Waits until `check` holds, polling every 50 ms, failing after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  for (const started = performance.now(); !(await check()); ) {
    if (performance.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a webhook whose receiver keeps failing', () => {
  it('is disabled after 3 days of failed attempts, says why in GET /api/webhooks/{id}, and PATCH active resumes it', async () => {
    const { token } = await signIn(server);
    const auth = bearer(token);
    const created = (await (
      await server.post('/api/webhooks', { url: receiver.url, events: ['ens.transfer'] }, auth)
    ).json()) as { id: string };
    receiver.fallbackStatus = 500;

    const firstTest = (await (await server.post(`/api/webhooks/${created.id}/test`, {}, auth)).json()) as {
      delivery: { eventId: string };
    };
    await receiver.waitFor((d) => d.json.id === firstTest.delivery.eventId);
    await until(async () => (await server.store.getWebhook(created.id))?.failingSince != null, 'the failure recorded');
    const failing = (await server.store.getWebhook(created.id))!;
    expect(failing.status).toBe('active');

    // The receiver is still down 3 days (and a minute) later, when an instance on the same store retries.
    const later = startDeliveryWorker({
      store: server.store,
      logger: pino({ level: 'silent' }),
      policy: { ...DEFAULT_DELIVERY_POLICY, pollMs: 20, retryBaseMs: 200, allowLocalUrls: true },
      now: () => Date.now() + 3 * DAY_MS + 60_000,
    });
    try {
      await until(async () => (await server.store.getWebhook(created.id))?.status === 'disabled', 'the disable');
    } finally {
      await later.stop();
    }
    expect(receiver.received.filter((d) => d.json.id === firstTest.delivery.eventId)).toHaveLength(2);

    const got = await server.get(`/api/webhooks/${created.id}`, auth);
    expect(got.status).toBe(200);
    const webhook = (await got.json()) as { status: string; disabledReason: string };
    expect(webhook.status).toBe('disabled');
    const [, from, to] = /^every delivery failed from (\S+) to (\S+)$/.exec(webhook.disabledReason) ?? [];
    expect(Date.parse(from!)).toBe(failing.failingSince);
    expect(Date.parse(to!) - Date.parse(from!)).toBeGreaterThanOrEqual(3 * DAY_MS);

    const deliveries = (await (await server.get(`/api/webhooks/${created.id}/deliveries`, auth)).json()) as {
      deliveries: { eventId: string; status: string; attempts: number }[];
    };
    expect(deliveries.deliveries).toEqual([
      expect.objectContaining({ eventId: firstTest.delivery.eventId, status: 'failed' }),
    ]);
    expect(deliveries.deliveries[0]!.attempts).toBe(2);

    // Disabled: no ping is queued; resumed with the receiver back, the next one arrives.
    expect((await server.post(`/api/webhooks/${created.id}/test`, {}, auth)).status).toBe(409);
    receiver.fallbackStatus = 200;
    const patched = await server.request({
      method: 'PATCH',
      path: `/api/webhooks/${created.id}`,
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ status: 'active' }),
    });
    expect(await patched.json()).toMatchObject({ status: 'active', disabledReason: null });
    const resumedTest = (await (await server.post(`/api/webhooks/${created.id}/test`, {}, auth)).json()) as {
      delivery: { eventId: string };
    };
    const [delivered] = await receiver.waitFor((d) => d.json.id === resumedTest.delivery.eventId);
    expect(delivered!.json.type).toBe('ping');
  });
});
