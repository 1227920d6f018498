import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { hashPage } from './redis-hash-page.js';
import { type RedisScript, runScript } from './redis-scripts.js';
import {
  claimDeliveriesScript,
  createWebhookScript,
  deleteWebhookScript,
  finishDeliveryScript,
  recordEventsScript,
  redeliverScript,
  updateWebhookScript,
} from './redis-webhook-scripts.js';
import { assertCount, normalizeAddress } from './store-arguments.js';
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  disabledMessage,
  type EventBatch,
  type FinishedAttempt,
  monthlyLimitMessage,
  type NewWebhook,
  type OutboxStats,
  type WebhookPlanName,
  type WebhookRecord,
  type WebhookStore,
  type WebhookUpdate,
} from './webhook-store.js';

/** How long a delivery of a paused webhook waits before the claim looks at it again. */
const PAUSED_RECHECK_MS = 5_000;
/** Event ids are remembered this long: no detector replays an older event. */
const EVENT_MEMORY_MS = 90 * 86_400_000;

/** A webhook as the hash keeps it: flat, its lists and objects as JSON strings. */
type WebhookRow = Omit<WebhookRecord, 'events' | 'filters'> & { events: string; filters: string };
type DeliveryRow = DeliveryRecord & { lease: string | null; leaseUntil: number };

const toWebhook = (json: string | null): WebhookRecord | null => {
  if (json === null) return null;
  const row = JSON.parse(json) as WebhookRow;
  return {
    ...row,
    events: JSON.parse(row.events) as string[],
    filters: JSON.parse(row.filters) as Record<string, unknown>,
  };
};

const toDelivery = (json: string | null): DeliveryRecord | null => {
  if (json === null) return null;
  const { lease: _lease, leaseUntil: _until, ...delivery } = JSON.parse(json) as DeliveryRow;
  return delivery;
};

/** Delivery rows read per round trip by outboxStats. */
const OUTBOX_STATS_PAGE = 500;

const present = <T>(value: T | null): value is T => value !== null;

/** The webhook part of the Redis store; every read-modify-write is one Lua script. */
export class RedisWebhooks implements WebhookStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private readonly keys = {
    plans: () => `${this.prefix}webhook-plans`,
    webhooks: () => `${this.prefix}webhooks`,
    walletWebhooks: (wallet: string) => `${this.prefix}wallet-webhooks:${wallet}`,
    events: () => `${this.prefix}webhook-events`,
    deliveries: () => `${this.prefix}webhook-deliveries`,
    webhookDeliveries: (webhookId: string) => `${this.prefix}webhook-deliveries:${webhookId}`,
    due: () => `${this.prefix}webhook-due`,
    counts: () => `${this.prefix}webhook-event-counts`,
    cursors: () => `${this.prefix}webhook-cursors`,
  };

  private run(target: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return runScript(this.redis, target, keys, args);
  }

  async getWebhookPlan(wallet: string): Promise<WebhookPlanName> {
    return ((await this.redis.hget(this.keys.plans(), normalizeAddress(wallet))) as WebhookPlanName | null) ?? 'free';
  }

  async setWebhookPlan(params: { wallet: string; plan: WebhookPlanName }): Promise<void> {
    await this.redis.hset(this.keys.plans(), normalizeAddress(params.wallet), params.plan);
  }

  async createWebhook(params: { webhook: NewWebhook; maxWebhooks: number | null }): Promise<WebhookRecord | null> {
    const { webhook } = params;
    const wallet = normalizeAddress(webhook.wallet);
    const row: WebhookRow = {
      ...webhook,
      wallet,
      events: JSON.stringify(webhook.events),
      filters: JSON.stringify(webhook.filters),
      status: 'active',
      updatedAt: webhook.createdAt,
      failingSince: null,
      disabledReason: null,
    };
    const json = JSON.stringify(row);
    const keys = [this.keys.webhooks(), this.keys.walletWebhooks(wallet)];
    const created = await this.run(createWebhookScript, keys, [
      webhook.id,
      json,
      webhook.createdAt,
      params.maxWebhooks ?? -1,
    ]);
    if (created === -1) throw new Error(`webhook id ${webhook.id} is taken`);
    return created === 1 ? toWebhook(json) : null;
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    return toWebhook(await this.redis.hget(this.keys.webhooks(), id));
  }

  async listWebhooks(wallet: string): Promise<WebhookRecord[]> {
    const ids = await this.redis.zrange(this.keys.walletWebhooks(normalizeAddress(wallet)), 0, -1);
    if (ids.length === 0) return [];
    return (await this.redis.hmget(this.keys.webhooks(), ...ids)).map(toWebhook).filter(present);
  }

  async listActiveWebhooks(): Promise<WebhookRecord[]> {
    const all = (await this.redis.hvals(this.keys.webhooks())).map(toWebhook).filter(present);
    return all.filter((w) => w.status === 'active').sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async updateWebhook(params: WebhookUpdate): Promise<WebhookRecord | null> {
    const { url, events, filters, status } = params.changes;
    const changes = {
      url,
      status,
      events: events === undefined ? undefined : JSON.stringify(events),
      filters: filters === undefined ? undefined : JSON.stringify(filters),
    };
    const args = [params.id, normalizeAddress(params.wallet), JSON.stringify(changes), params.now];
    return toWebhook((await this.run(updateWebhookScript, [this.keys.webhooks()], args)) as string | null);
  }

  async deleteWebhook(params: { id: string; wallet: string }): Promise<boolean> {
    const wallet = normalizeAddress(params.wallet);
    const keys = [
      this.keys.webhooks(),
      this.keys.walletWebhooks(wallet),
      this.keys.webhookDeliveries(params.id),
      this.keys.deliveries(),
      this.keys.due(),
    ];
    return (await this.run(deleteWebhookScript, keys, [params.id, wallet])) === 1;
  }

  async recordEvents(params: EventBatch): Promise<number> {
    const events = params.events.map((e) => ({
      id: e.id,
      type: e.type,
      payload: e.payload,
      targets: e.targets.map((t) => ({
        webhookId: t.webhookId,
        wallet: normalizeAddress(t.wallet),
        deliveryId: t.deliveryId,
        monthlyLimit: t.monthlyLimit ?? -1,
        droppedError: t.monthlyLimit === null ? '' : monthlyLimitMessage(t.monthlyLimit),
      })),
    }));
    const cursors = Object.entries(params.cursors ?? {});
    if (events.length === 0 && cursors.length === 0) return 0;
    const keys = [
      this.keys.events(),
      this.keys.deliveries(),
      this.keys.due(),
      this.keys.counts(),
      this.keys.cursors(),
      ...events.flatMap((e) => e.targets.map((t) => this.keys.webhookDeliveries(t.webhookId))),
    ];
    const batch = JSON.stringify({ events, cursors });
    const args = [params.now, params.month, batch, params.now - EVENT_MEMORY_MS];
    return Number(await this.run(recordEventsScript, keys, args));
  }

  async getCursor(name: string): Promise<string | null> {
    return this.redis.hget(this.keys.cursors(), name);
  }

  async countWebhookEvents(params: { wallet: string; month: string }): Promise<number> {
    return Number(
      (await this.redis.hget(this.keys.counts(), `${normalizeAddress(params.wallet)}|${params.month}`)) ?? 0,
    );
  }

  async claimDeliveries(params: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    assertCount('limit', params.limit, 1);
    assertCount('leaseMs', params.leaseMs, 1);
    const leases = Array.from({ length: params.limit }, () => randomUUID());
    const keys = [this.keys.deliveries(), this.keys.due(), this.keys.webhooks()];
    const args = [params.now, params.leaseMs, params.limit, PAUSED_RECHECK_MS, ...leases];
    const reply = (await this.run(claimDeliveriesScript, keys, args)) as string[];
    const claimed: ClaimedDelivery[] = [];
    for (let i = 0; i + 2 < reply.length; i += 3) {
      const row = JSON.parse(reply[i]!) as DeliveryRow;
      claimed.push({ delivery: toDelivery(reply[i]!)!, lease: row.lease!, url: reply[i + 1]!, secret: reply[i + 2]! });
    }
    return claimed;
  }

  async finishDelivery(params: FinishedAttempt): Promise<boolean> {
    // A delivery's webhook never changes, so reading it first names every key the script needs.
    const delivery = await this.getDelivery(params.id);
    if (!delivery) return false;
    const webhook = await this.getWebhook(delivery.webhookId);
    const keys = [
      this.keys.deliveries(),
      this.keys.due(),
      this.keys.webhooks(),
      this.keys.webhookDeliveries(delivery.webhookId),
    ];
    const args = [
      params.id,
      params.lease,
      JSON.stringify({ ...params.attempt, latencyMs: Math.round(params.attempt.latencyMs) }),
      params.retryAt ?? -1,
      params.disableAfterMs,
      params.now,
      disabledMessage(webhook?.failingSince ?? params.now, params.now),
    ];
    return (await this.run(finishDeliveryScript, keys, args)) === 1;
  }

  async getDelivery(id: string): Promise<DeliveryRecord | null> {
    return toDelivery(await this.redis.hget(this.keys.deliveries(), id));
  }

  async listDeliveries(params: { webhookId: string; limit: number; offset: number }): Promise<DeliveryRecord[]> {
    const order = this.keys.webhookDeliveries(params.webhookId);
    return hashPage(this.redis, { order, rows: this.keys.deliveries(), direction: 'descending' }, params, toDelivery);
  }

  async redeliver(params: { webhookId: string; deliveryId: string; now: number }): Promise<DeliveryRecord | null> {
    const keys = [this.keys.deliveries(), this.keys.due()];
    const row = await this.run(redeliverScript, keys, [params.deliveryId, params.webhookId, params.now]);
    return toDelivery((row as string | null) ?? null);
  }

  async outboxStats(): Promise<OutboxStats> {
    // Every pending delivery is in the due set (scored by its next attempt, not its age): their rows are read in pages.
    const ids = await this.redis.zrange(this.keys.due(), 0, -1);
    let pending = 0;
    let oldestPendingAt: number | null = null;
    for (let i = 0; i < ids.length; i += OUTBOX_STATS_PAGE) {
      const rows = await this.redis.hmget(this.keys.deliveries(), ...ids.slice(i, i + OUTBOX_STATS_PAGE));
      for (const delivery of rows.map(toDelivery)) {
        if (delivery?.status !== 'pending') continue;
        pending += 1;
        if (oldestPendingAt === null || delivery.createdAt < oldestPendingAt) oldestPendingAt = delivery.createdAt;
      }
    }
    const webhooks = (await this.redis.hvals(this.keys.webhooks())).map(toWebhook);
    const disabledWebhooks = webhooks.filter((w) => w?.status === 'disabled').length;
    return { pending, oldestPendingAt, disabledWebhooks };
  }
}
