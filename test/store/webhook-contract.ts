import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { NewWebhook, OutboxEvent } from '../../src/store/webhook-store.js';

const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);
const DAY = 86_400_000;
const WALLET_A = `0x${'aA'.repeat(20)}`;
const WALLET_B = `0x${'bB'.repeat(20)}`;
const MONTH = '2025-03';

const newWebhook = (overrides: Partial<NewWebhook> = {}): NewWebhook => ({
  id: randomUUID(),
  wallet: WALLET_A,
  url: 'https://hooks.example.org/in',
  events: ['ens.transfer'],
  filters: { names: ['*.base.eth'] },
  secret: 'whsec_test',
  createdAt: T0,
  ...overrides,
});

const eventFor = (webhookId: string, id = `evt_${randomUUID()}`, monthlyLimit: number | null = 1000): OutboxEvent => ({
  id,
  type: 'ens.transfer',
  payload: JSON.stringify({ id, type: 'ens.transfer', timestamp: new Date(T0).toISOString(), data: { name: 'ü.eth' } }),
  targets: [{ webhookId, wallet: WALLET_A, deliveryId: randomUUID(), monthlyLimit }],
});

/**
 * The webhook part of the store contract (src/store/webhook-store.ts), for every implementation; `stores()` are
 * instances over the same data.
 */
/** The id and lease of a claimed delivery, to finish it. */
const lease = (claimed: { delivery: { id: string }; lease: string }) => ({
  id: claimed.delivery.id,
  lease: claimed.lease,
});

export function describeWebhookContract(stores: () => Store[]): void {
  const store = () => stores()[0]!;
  const spread = <T>(count: number, call: (s: Store, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, i) => call(stores()[i % stores().length]!, i)));

  describe('webhooks', () => {
    it('a wallet is on the free plan until another is set', async () => {
      expect(await store().getWebhookPlan(WALLET_A)).toBe('free');
      await store().setWebhookPlan({ wallet: WALLET_A.toUpperCase().replace('0X', '0x'), plan: 'pro' });
      expect(await stores().at(-1)!.getWebhookPlan(WALLET_A.toLowerCase())).toBe('pro');
      expect(await store().getWebhookPlan(WALLET_B)).toBe('free');
    });

    it('creates an active webhook with its secret kept, and lists the wallet’s oldest first', async () => {
      const first = await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null });
      const second = await store().createWebhook({ webhook: newWebhook({ createdAt: T0 + 1 }), maxWebhooks: null });
      expect(first).toMatchObject({ status: 'active', secret: 'whsec_test', wallet: WALLET_A.toLowerCase() });
      expect(first!.filters).toEqual({ names: ['*.base.eth'] });
      expect((await store().listWebhooks(WALLET_A)).map((w) => w.id)).toEqual([first!.id, second!.id]);
      expect(await store().getWebhook(second!.id)).toEqual(second);
      expect(await store().listWebhooks(WALLET_B)).toEqual([]);
    });

    it('of 10 concurrent creations under a limit of 1, exactly one succeeds', async () => {
      const created = await spread(10, (s) => s.createWebhook({ webhook: newWebhook(), maxWebhooks: 1 }));
      expect(created.filter((w) => w !== null)).toHaveLength(1);
      expect(await store().listWebhooks(WALLET_A)).toHaveLength(1);
    });

    it('only the owner updates or deletes a webhook; deleting drops its deliveries', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      expect(
        await store().updateWebhook({ id: hook.id, wallet: WALLET_B, changes: { status: 'paused' }, now: T0 }),
      ).toBe(null);
      const paused = await store().updateWebhook({
        id: hook.id,
        wallet: WALLET_A,
        changes: { status: 'paused', events: ['ens.expired', 'ens.transfer'], filters: {} },
        now: T0 + 5,
      });
      expect(paused).toMatchObject({ status: 'paused', events: ['ens.expired', 'ens.transfer'], filters: {} });
      expect(paused!.updatedAt).toBe(T0 + 5);
      expect(await store().listActiveWebhooks()).toEqual([]);
      const event = eventFor(hook.id);
      await store().recordEvents({ events: [event], month: MONTH, now: T0 });
      expect(await store().deleteWebhook({ id: hook.id, wallet: WALLET_B })).toBe(false);
      expect(await store().deleteWebhook({ id: hook.id, wallet: WALLET_A })).toBe(true);
      expect(await store().getWebhook(hook.id)).toBe(null);
      expect(await store().getDelivery(event.targets[0]!.deliveryId)).toBe(null);
    });

    it('an event is recorded once by id, and the cursor moves in the same step', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      const event = eventFor(hook.id);
      const results = await spread(6, (s) =>
        s.recordEvents({ events: [event], cursors: { 'ens:block': '42' }, month: MONTH, now: T0 }),
      );
      expect(results.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await store().getCursor('ens:block')).toBe('42');
      expect(await store().getCursor('unknown')).toBe(null);
      const deliveries = await store().listDeliveries({ webhookId: hook.id, limit: 10, offset: 0 });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        status: 'pending',
        attempts: 0,
        eventId: event.id,
        payload: event.payload,
      });
      expect(await store().countWebhookEvents({ wallet: WALLET_A, month: MONTH })).toBe(1);
    });

    it('past the monthly limit a delivery is dropped and says why; a ping is not counted', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      await store().recordEvents({
        events: [eventFor(hook.id, 'e1', 2), eventFor(hook.id, 'e2', 2)],
        month: MONTH,
        now: T0,
      });
      await store().recordEvents({
        events: [eventFor(hook.id, 'e3', 2), eventFor(hook.id, 'p', null)],
        month: MONTH,
        now: T0 + 1,
      });
      const all = await store().listDeliveries({ webhookId: hook.id, limit: 10, offset: 0 });
      const byEvent = Object.fromEntries(all.map((d) => [d.eventId, d]));
      expect(byEvent.e3).toMatchObject({ status: 'dropped', nextAttemptAt: null });
      expect(byEvent.e3!.error).toMatch(/2 events this month/);
      expect(byEvent.p!.status).toBe('pending');
      expect(await store().countWebhookEvents({ wallet: WALLET_A, month: MONTH })).toBe(2);
      expect(await store().countWebhookEvents({ wallet: WALLET_A, month: '2025-04' })).toBe(0);
    });

    it('each due delivery is claimed by one of many concurrent claimers, and again once its lease runs out', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      const events = Array.from({ length: 12 }, () => eventFor(hook.id));
      await store().recordEvents({ events, month: MONTH, now: T0 });
      const claims = (await spread(8, (s) => s.claimDeliveries({ now: T0, leaseMs: 30_000, limit: 5 }))).flat();
      expect(claims).toHaveLength(12);
      expect(new Set(claims.map((c) => c.delivery.id)).size).toBe(12);
      expect(claims[0]).toMatchObject({ url: hook.url, secret: hook.secret });
      expect(await store().claimDeliveries({ now: T0 + 29_999, leaseMs: 30_000, limit: 50 })).toEqual([]);
      const again = await store().claimDeliveries({ now: T0 + 30_000, leaseMs: 30_000, limit: 50 });
      expect(again).toHaveLength(12);
      // The first holder lost its lease: its late result is refused.
      const stale = claims[0]!;
      const attempt = { ok: true, responseCode: 200, latencyMs: 5, error: null };
      expect(
        await store().finishDelivery({
          id: stale.delivery.id,
          lease: stale.lease,
          attempt,
          retryAt: null,
          disableAfterMs: DAY,
          now: T0,
        }),
      ).toBe(false);
    });

    it('deliveries of a paused webhook wait, and are claimed once it is active again', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      await store().recordEvents({ events: [eventFor(hook.id)], month: MONTH, now: T0 });
      await store().updateWebhook({ id: hook.id, wallet: WALLET_A, changes: { status: 'paused' }, now: T0 });
      expect(await store().claimDeliveries({ now: T0, leaseMs: 1000, limit: 5 })).toEqual([]);
      await store().updateWebhook({ id: hook.id, wallet: WALLET_A, changes: { status: 'active' }, now: T0 });
      expect(await store().claimDeliveries({ now: T0 + 10_000, leaseMs: 1000, limit: 5 })).toHaveLength(1);
    });

    it('an attempt settles a delivery: delivered, retried at the given time, or failed', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      await store().recordEvents({ events: [eventFor(hook.id), eventFor(hook.id)], month: MONTH, now: T0 });
      const [a, b] = await store().claimDeliveries({ now: T0, leaseMs: 30_000, limit: 5 });
      const failed = { ok: false, responseCode: 500, latencyMs: 12.4, error: 'HTTP 500' };
      expect(
        await store().finishDelivery({
          id: a!.delivery.id,
          lease: a!.lease,
          attempt: failed,
          retryAt: T0 + 5000,
          disableAfterMs: 3 * DAY,
          now: T0,
        }),
      ).toBe(true);
      expect(await store().getDelivery(a!.delivery.id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        responseCode: 500,
        latencyMs: 12,
        nextAttemptAt: T0 + 5000,
        error: 'HTTP 500',
      });
      expect((await store().getWebhook(hook.id))!.failingSince).toBe(T0);
      expect(await store().claimDeliveries({ now: T0 + 4999, leaseMs: 30_000, limit: 5 })).toEqual([]);
      const [retry] = await store().claimDeliveries({ now: T0 + 5000, leaseMs: 30_000, limit: 5 });
      const ok = { ok: true, responseCode: 204, latencyMs: 3, error: null };
      await store().finishDelivery({
        id: retry!.delivery.id,
        lease: retry!.lease,
        attempt: ok,
        retryAt: null,
        disableAfterMs: 3 * DAY,
        now: T0 + 5001,
      });
      expect(await store().getDelivery(retry!.delivery.id)).toMatchObject({
        status: 'delivered',
        attempts: 2,
        deliveredAt: T0 + 5001,
        nextAttemptAt: null,
      });
      expect((await store().getWebhook(hook.id))!.failingSince).toBe(null);
      await store().finishDelivery({
        id: b!.delivery.id,
        lease: b!.lease,
        attempt: failed,
        retryAt: null,
        disableAfterMs: 3 * DAY,
        now: T0 + 6000,
      });
      expect(await store().getDelivery(b!.delivery.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
    });

    it('a webhook failing for the disable period is disabled, says so, and its pending deliveries fail', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      await store().recordEvents({ events: [eventFor(hook.id), eventFor(hook.id)], month: MONTH, now: T0 });
      const failed = { ok: false, responseCode: null, latencyMs: 10_000, error: 'timeout after 10000 ms' };
      const [first] = await store().claimDeliveries({ now: T0, leaseMs: 30_000, limit: 1 });
      await store().finishDelivery({
        id: first!.delivery.id,
        lease: first!.lease,
        attempt: failed,
        retryAt: T0 + 3 * DAY,
        disableAfterMs: 3 * DAY,
        now: T0,
      });
      expect((await store().getWebhook(hook.id))!.status).toBe('active');
      const [later] = await store().claimDeliveries({ now: T0 + 3 * DAY, leaseMs: 30_000, limit: 1 });
      await store().finishDelivery({
        id: later!.delivery.id,
        lease: later!.lease,
        attempt: failed,
        retryAt: T0 + 4 * DAY,
        disableAfterMs: 3 * DAY,
        now: T0 + 3 * DAY,
      });
      const disabled = (await store().getWebhook(hook.id))!;
      expect(disabled.status).toBe('disabled');
      expect(disabled.disabledReason).toMatch(/failed from 2025-03-14T12:00:00.000Z/);
      const deliveries = await store().listDeliveries({ webhookId: hook.id, limit: 10, offset: 0 });
      expect(deliveries.map((d) => d.status)).toEqual(['failed', 'failed']);
      const resumed = await store().updateWebhook({
        id: hook.id,
        wallet: WALLET_A,
        changes: { status: 'active' },
        now: T0 + 4 * DAY,
      });
      expect(resumed).toMatchObject({ status: 'active', failingSince: null, disabledReason: null });
    });

    it('outbox stats: pending deliveries, when the oldest was recorded, and the webhooks the service disabled', async () => {
      const before = await store().outboxStats();
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      await store().recordEvents({ events: [eventFor(hook.id)], month: MONTH, now: T0 - 5000 });
      await store().recordEvents({ events: [eventFor(hook.id), eventFor(hook.id)], month: MONTH, now: T0 });
      const pending = await store().outboxStats();
      expect(pending.pending).toBe(before.pending + 3);
      expect(pending.oldestPendingAt).toBeLessThanOrEqual(T0 - 5000);

      // Delivered leaves the outbox; a webhook failing for the disable period is disabled and its deliveries fail.
      const [first] = await store().claimDeliveries({ now: T0, leaseMs: 30_000, limit: 1 });
      const ok = { ok: true, responseCode: 200, latencyMs: 5, error: null };
      await store().finishDelivery({ ...lease(first!), attempt: ok, retryAt: null, disableAfterMs: 3 * DAY, now: T0 });
      expect((await store().outboxStats()).pending).toBe(before.pending + 2);
      const failed = { ok: false, responseCode: 500, latencyMs: 5, error: 'HTTP 500' };
      const [second] = await store().claimDeliveries({ now: T0, leaseMs: 30_000, limit: 1 });
      await store().finishDelivery({
        ...lease(second!),
        attempt: failed,
        retryAt: T0 + DAY,
        disableAfterMs: 0,
        now: T0,
      });
      const after = await store().outboxStats();
      expect(after.pending).toBe(before.pending);
      expect(after.disabledWebhooks).toBe(before.disabledWebhooks + 1);
    });

    it('lists deliveries newest first with offset, and redelivers one with its payload unchanged', async () => {
      const hook = (await store().createWebhook({ webhook: newWebhook(), maxWebhooks: null }))!;
      for (let i = 0; i < 3; i++)
        await store().recordEvents({ events: [eventFor(hook.id, `e${i}`)], month: MONTH, now: T0 + i });
      const page = await store().listDeliveries({ webhookId: hook.id, limit: 2, offset: 1 });
      expect(page.map((d) => d.eventId)).toEqual(['e1', 'e0']);
      const [claim] = await store().claimDeliveries({ now: T0 + 10, leaseMs: 1000, limit: 1 });
      const ok = { ok: true, responseCode: 200, latencyMs: 1, error: null };
      await store().finishDelivery({
        id: claim!.delivery.id,
        lease: claim!.lease,
        attempt: ok,
        retryAt: null,
        disableAfterMs: DAY,
        now: T0 + 11,
      });
      const again = await store().redeliver({ webhookId: hook.id, deliveryId: claim!.delivery.id, now: T0 + 20 });
      expect(again).toMatchObject({ status: 'pending', nextAttemptAt: T0 + 20, payload: claim!.delivery.payload });
      expect(await store().redeliver({ webhookId: 'other', deliveryId: claim!.delivery.id, now: T0 })).toBe(null);
      const reclaimed = await store().claimDeliveries({ now: T0 + 20, leaseMs: 1000, limit: 5 });
      expect(reclaimed.map((c) => c.delivery.id)).toContain(claim!.delivery.id);
    });
  });
}
