import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-client.js';
import { hashPage } from './redis-hash-page.js';
import { type RedisScript, type ReplicaWait, runScript } from './redis-scripts.js';
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

/**
 * The outbox is kept in this many partitions, a wallet's webhooks and deliveries in one (its event counts and webhook
 * limit with them), each under its own hash tag: on a Redis Cluster the partitions spread over the masters. Fixed:
 * changing it would move every wallet's data.
 */
export const OUTBOX_PARTITIONS = 16;
const PARTITIONS = Array.from({ length: OUTBOX_PARTITIONS }, (_, p) => p);

/** The outbox partition of a wallet (lower-cased address). */
export function outboxPartition(wallet: string): number {
  return createHash('sha1').update(wallet).digest().readUInt32BE(0) % OUTBOX_PARTITIONS;
}

/** A lease names its partition (`<partition>:<uuid>`), so finishing a delivery needs no lookup. */
const leaseIn = (partition: number): string => `${partition}:${randomUUID()}`;
const partitionOfLease = (lease: string): number | undefined => {
  const partition = Number(/^(\d+):/.exec(lease)?.[1]);
  return Number.isInteger(partition) && partition < OUTBOX_PARTITIONS ? partition : undefined;
};

/** How long a delivery of a paused webhook waits before the claim looks at it again. */
const PAUSED_RECHECK_MS = 5_000;
/** Event ids are remembered this long: no detector replays an older event. */
const EVENT_MEMORY_MS = 90 * 86_400_000;

/** A webhook as the hash keeps it: flat, its lists and objects as JSON strings. */
type WebhookRow = Omit<WebhookRecord, 'events' | 'filters'> & { events: string; filters: string };
type DeliveryRow = DeliveryRecord & { lease: string | null; leaseUntil: number };
/** An event as one partition's script records it: its targets in that partition. */
interface PartitionEvent {
  id: string;
  type: string;
  payload: string;
  targets: { webhookId: string; wallet: string; deliveryId: string; monthlyLimit: number; droppedError: string }[];
}

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

/**
 * The webhook part of the Redis store; every read-modify-write is one Lua script in one outbox partition. Plans and
 * detector cursors are single keys outside the partitions.
 */
export class RedisWebhooks implements WebhookStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly wait?: ReplicaWait,
  ) {}

  private readonly keys = {
    plans: () => `${this.prefix}webhook-plans`,
    cursors: () => `${this.prefix}webhook-cursors`,
    webhooks: (p: number) => `${this.prefix}webhooks:{wh:${p}}`,
    walletWebhooks: (p: number, wallet: string) => `${this.prefix}wallet-webhooks:{wh:${p}}:${wallet}`,
    events: (p: number) => `${this.prefix}webhook-events:{wh:${p}}`,
    deliveries: (p: number) => `${this.prefix}webhook-deliveries:{wh:${p}}`,
    webhookDeliveries: (p: number, webhookId: string) => `${this.prefix}webhook-deliveries:{wh:${p}}:${webhookId}`,
    due: (p: number) => `${this.prefix}webhook-due:{wh:${p}}`,
    counts: (p: number) => `${this.prefix}webhook-event-counts:{wh:${p}}`,
  };

  private run(target: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return runScript(this.redis, target, keys, args, this.wait);
  }

  /** The partition holding webhook `id` (asked of all, pipelined: only the owner's wallet names it); undefined if none. */
  private async partitionOfWebhook(id: string): Promise<number | undefined> {
    const held = await Promise.all(PARTITIONS.map((p) => this.redis.hexists(this.keys.webhooks(p), id)));
    const found = held.indexOf(1);
    return found < 0 ? undefined : found;
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
    const p = outboxPartition(wallet);
    const keys = [this.keys.webhooks(p), this.keys.walletWebhooks(p, wallet)];
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
    const rows = await Promise.all(PARTITIONS.map((p) => this.redis.hget(this.keys.webhooks(p), id)));
    return toWebhook(rows.find((row) => row !== null) ?? null);
  }

  async listWebhooks(wallet: string): Promise<WebhookRecord[]> {
    const owner = normalizeAddress(wallet);
    const p = outboxPartition(owner);
    const ids = await this.redis.zrange(this.keys.walletWebhooks(p, owner), 0, -1);
    if (ids.length === 0) return [];
    return (await this.redis.hmget(this.keys.webhooks(p), ...ids)).map(toWebhook).filter(present);
  }

  async listActiveWebhooks(): Promise<WebhookRecord[]> {
    const rows = await Promise.all(PARTITIONS.map((p) => this.redis.hvals(this.keys.webhooks(p))));
    const all = rows.flat().map(toWebhook).filter(present);
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
    const wallet = normalizeAddress(params.wallet);
    const args = [params.id, wallet, JSON.stringify(changes), params.now];
    const keys = [this.keys.webhooks(outboxPartition(wallet))];
    return toWebhook((await this.run(updateWebhookScript, keys, args)) as string | null);
  }

  async deleteWebhook(params: { id: string; wallet: string }): Promise<boolean> {
    const wallet = normalizeAddress(params.wallet);
    const p = outboxPartition(wallet);
    const keys = [
      this.keys.webhooks(p),
      this.keys.walletWebhooks(p, wallet),
      this.keys.webhookDeliveries(p, params.id),
      this.keys.deliveries(p),
      this.keys.due(p),
    ];
    return (await this.run(deleteWebhookScript, keys, [params.id, wallet])) === 1;
  }

  async recordEvents(params: EventBatch): Promise<number> {
    // Each partition records its wallets' deliveries in one step (an event id is remembered per partition), and the
    // cursors move only once every partition has: after a failure in between, the detector's retry records what is
    // missing and nothing twice.
    const byPartition = new Map<number, PartitionEvent[]>();
    for (const e of params.events) {
      for (const t of e.targets) {
        const wallet = normalizeAddress(t.wallet);
        const events = byPartition.get(outboxPartition(wallet)) ?? [];
        byPartition.set(outboxPartition(wallet), events);
        let event = events.at(-1);
        if (event?.id !== e.id) {
          event = { id: e.id, type: e.type, payload: e.payload, targets: [] };
          events.push(event);
        }
        event.targets.push({
          webhookId: t.webhookId,
          wallet,
          deliveryId: t.deliveryId,
          monthlyLimit: t.monthlyLimit ?? -1,
          droppedError: t.monthlyLimit === null ? '' : monthlyLimitMessage(t.monthlyLimit),
        });
      }
    }
    const recorded = await Promise.all(
      [...byPartition].map(([p, events]) => {
        const keys = [
          this.keys.events(p),
          this.keys.deliveries(p),
          this.keys.due(p),
          this.keys.counts(p),
          ...events.flatMap((e) => e.targets.map((t) => this.keys.webhookDeliveries(p, t.webhookId))),
        ];
        const args = [params.now, params.month, JSON.stringify({ events }), params.now - EVENT_MEMORY_MS];
        return this.run(recordEventsScript, keys, args);
      }),
    );
    const cursors = Object.entries(params.cursors ?? {});
    if (cursors.length > 0) await this.redis.hset(this.keys.cursors(), Object.fromEntries(cursors));
    return recorded.reduce<number>((sum, pending) => sum + Number(pending), 0);
  }

  async getCursor(name: string): Promise<string | null> {
    return this.redis.hget(this.keys.cursors(), name);
  }

  async countWebhookEvents(params: { wallet: string; month: string }): Promise<number> {
    const wallet = normalizeAddress(params.wallet);
    const counted = await this.redis.hget(this.keys.counts(outboxPartition(wallet)), `${wallet}|${params.month}`);
    return Number(counted ?? 0);
  }

  async claimDeliveries(params: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    assertCount('limit', params.limit, 1);
    assertCount('leaseMs', params.leaseMs, 1);
    // Which partitions have anything due (one pipelined count each), then claims from those, starting at a random
    // one so that instances claiming at once spread over them.
    const due = await Promise.all(PARTITIONS.map((p) => this.redis.zcount(this.keys.due(p), '-inf', params.now)));
    const start = Math.floor(Math.random() * OUTBOX_PARTITIONS);
    const claimed: ClaimedDelivery[] = [];
    for (let i = 0; i < OUTBOX_PARTITIONS && claimed.length < params.limit; i++) {
      const p = (start + i) % OUTBOX_PARTITIONS;
      if (due[p] === 0) continue;
      claimed.push(...(await this.claimIn(p, params.now, params.leaseMs, params.limit - claimed.length)));
    }
    return claimed;
  }

  private async claimIn(p: number, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const leases = Array.from({ length: limit }, () => leaseIn(p));
    const keys = [this.keys.deliveries(p), this.keys.due(p), this.keys.webhooks(p)];
    const args = [now, leaseMs, limit, PAUSED_RECHECK_MS, ...leases];
    const reply = (await this.run(claimDeliveriesScript, keys, args)) as string[];
    const claimed: ClaimedDelivery[] = [];
    for (let i = 0; i + 2 < reply.length; i += 3) {
      const row = JSON.parse(reply[i]!) as DeliveryRow;
      claimed.push({ delivery: toDelivery(reply[i]!)!, lease: row.lease!, url: reply[i + 1]!, secret: reply[i + 2]! });
    }
    return claimed;
  }

  async finishDelivery(params: FinishedAttempt): Promise<boolean> {
    const p = partitionOfLease(params.lease);
    if (p === undefined) return false;
    // A delivery's webhook never changes, so reading it first names every key the script needs.
    const delivery = toDelivery(await this.redis.hget(this.keys.deliveries(p), params.id));
    if (!delivery) return false;
    const webhook = toWebhook(await this.redis.hget(this.keys.webhooks(p), delivery.webhookId));
    const keys = [
      this.keys.deliveries(p),
      this.keys.due(p),
      this.keys.webhooks(p),
      this.keys.webhookDeliveries(p, delivery.webhookId),
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
    const rows = await Promise.all(PARTITIONS.map((p) => this.redis.hget(this.keys.deliveries(p), id)));
    return toDelivery(rows.find((row) => row !== null) ?? null);
  }

  async listDeliveries(params: { webhookId: string; limit: number; offset: number }): Promise<DeliveryRecord[]> {
    const p = await this.partitionOfWebhook(params.webhookId);
    if (p === undefined) return [];
    const index = {
      order: this.keys.webhookDeliveries(p, params.webhookId),
      rows: this.keys.deliveries(p),
      direction: 'descending' as const,
    };
    return hashPage(this.redis, index, params, toDelivery);
  }

  async redeliver(params: { webhookId: string; deliveryId: string; now: number }): Promise<DeliveryRecord | null> {
    const p = await this.partitionOfWebhook(params.webhookId);
    if (p === undefined) return null;
    const keys = [this.keys.deliveries(p), this.keys.due(p)];
    const row = await this.run(redeliverScript, keys, [params.deliveryId, params.webhookId, params.now]);
    return toDelivery((row as string | null) ?? null);
  }

  async outboxStats(): Promise<OutboxStats> {
    // Every pending delivery is in its partition's due set (scored by its next attempt, not its age): each partition's
    // rows are read in pages, the partitions side by side (on a cluster they live on different masters).
    const perPartition = await Promise.all(PARTITIONS.map((p) => this.partitionOutbox(p)));
    let pending = 0;
    let oldestPendingAt: number | null = null;
    for (const part of perPartition) {
      pending += part.pending;
      if (part.oldestPendingAt !== null && (oldestPendingAt === null || part.oldestPendingAt < oldestPendingAt)) {
        oldestPendingAt = part.oldestPendingAt;
      }
    }
    const webhooks = (await Promise.all(PARTITIONS.map((p) => this.redis.hvals(this.keys.webhooks(p))))).flat();
    const disabledWebhooks = webhooks.map(toWebhook).filter((w) => w?.status === 'disabled').length;
    return { pending, oldestPendingAt, disabledWebhooks };
  }

  /** One outbox partition's pending deliveries: how many, and when the oldest was made. */
  private async partitionOutbox(p: number): Promise<{ pending: number; oldestPendingAt: number | null }> {
    const ids = await this.redis.zrange(this.keys.due(p), 0, -1);
    let pending = 0;
    let oldestPendingAt: number | null = null;
    for (let i = 0; i < ids.length; i += OUTBOX_STATS_PAGE) {
      const rows = await this.redis.hmget(this.keys.deliveries(p), ...ids.slice(i, i + OUTBOX_STATS_PAGE));
      for (const delivery of rows.map(toDelivery)) {
        if (delivery?.status !== 'pending') continue;
        pending += 1;
        if (oldestPendingAt === null || delivery.createdAt < oldestPendingAt) oldestPendingAt = delivery.createdAt;
      }
    }
    return { pending, oldestPendingAt };
  }
}
