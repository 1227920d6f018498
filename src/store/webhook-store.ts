/**
 * The webhook part of the store: subscriptions, the plan of each wallet, and the delivery outbox.
 *
 * The outbox is what makes delivery at-least-once and durable: an event is written (with one delivery per
 * subscribed webhook) before anyone tries to send it, each attempt is claimed under a lease so that of several
 * instances exactly one sends it, and a delivery stays pending until an attempt settles it. A process killed
 * mid-attempt leaves its lease to expire, and the next claim (on any instance) sends it again.
 */

/** docs/api-contract.md#events: Free, Pro, Enterprise. */
export type WebhookPlanName = 'free' | 'pro' | 'enterprise';

/** `disabled`: failing for too long (the service set it); `paused`: the owner set it. */
export type WebhookStatus = 'active' | 'paused' | 'disabled';

export interface NewWebhook {
  id: string;
  /** The owning wallet, lower-cased by the store. */
  wallet: string;
  url: string;
  events: string[];
  /** Which events of the subscribed types this webhook wants (names, addresses, FIDs, price thresholds). */
  filters: Record<string, unknown>;
  /** HMAC key of the signatures; kept so deliveries can be signed, never returned after creation. */
  secret: string;
  createdAt: number;
}

export interface WebhookRecord extends NewWebhook {
  status: WebhookStatus;
  updatedAt: number;
  /** Since when every attempt has failed; null after a success. */
  failingSince: number | null;
  /** Why the service disabled it. */
  disabledReason: string | null;
}

/** What the owner may change; resuming (`status: 'active'`) a disabled webhook clears its failure record. */
export interface WebhookChanges {
  url?: string;
  events?: string[];
  filters?: Record<string, unknown>;
  status?: 'active' | 'paused';
}

/** `dropped`: not sent because the owner's plan had no events left this month. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  wallet: string;
  eventId: string;
  eventType: string;
  /** The exact body sent on every attempt (the signatures cover these bytes). */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  /** When the next attempt is due; null once settled. */
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  deliveredAt: number | null;
  /** HTTP status of the last attempt; null when it got no answer. */
  responseCode: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** One event to record, and the webhooks it goes to. */
export interface OutboxEvent {
  /** Stable: the same chain log or poll result always gives the same id, so recording it twice does nothing. */
  id: string;
  type: string;
  /** The body `{id, type, timestamp, data}` as it will be sent. */
  payload: string;
  targets: {
    webhookId: string;
    wallet: string;
    deliveryId: string;
    /** Events the wallet's plan allows per month; null: unlimited and not counted (a ping). */
    monthlyLimit: number | null;
  }[];
}

/** A delivery this caller may attempt until `leaseUntil`, with where and how to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  lease: string;
  url: string;
  secret: string;
}

export interface DeliveryAttempt {
  ok: boolean;
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** What {@link WebhookStore.updateWebhook} applies: the owner's `changes` to their webhook `id`. */
export interface WebhookUpdate {
  id: string;
  wallet: string;
  changes: WebhookChanges;
  now: number;
}

/** What {@link WebhookStore.recordEvents} records in one atomic step. */
export interface EventBatch {
  events: OutboxEvent[];
  /** Detector positions to set with the events. */
  cursors?: Record<string, string>;
  month: string;
  now: number;
}

/** What {@link WebhookStore.finishDelivery} records about an attempt of a claimed delivery. */
export interface FinishedAttempt {
  id: string;
  lease: string;
  attempt: DeliveryAttempt;
  retryAt: number | null;
  disableAfterMs: number;
  now: number;
}

/** The outbox at a glance (the /metrics gauges): read at scrape time, never on a request. */
export interface OutboxStats {
  /** Deliveries waiting for an attempt (due, leased, or backing off before a retry). */
  pending: number;
  /** When the oldest pending delivery was recorded; null when none is pending. */
  oldestPendingAt: number | null;
  /** Webhooks the service disabled after failing for too long. */
  disabledWebhooks: number;
}

export interface WebhookStore {
  /** The wallet's plan; `free` until one is set. */
  getWebhookPlan(wallet: string): Promise<WebhookPlanName>;

  setWebhookPlan(params: { wallet: string; plan: WebhookPlanName }): Promise<void>;

  /** Creates an active webhook unless the wallet already holds `maxWebhooks` (null: no limit); then null. */
  createWebhook(params: { webhook: NewWebhook; maxWebhooks: number | null }): Promise<WebhookRecord | null>;

  getWebhook(id: string): Promise<WebhookRecord | null>;

  /** The wallet's webhooks, oldest first. */
  listWebhooks(wallet: string): Promise<WebhookRecord[]>;

  /** Every active webhook of every wallet (what the event detectors match against). */
  listActiveWebhooks(): Promise<WebhookRecord[]>;

  /** Applies the changes; null when the wallet holds no webhook with this id. */
  updateWebhook(params: WebhookUpdate): Promise<WebhookRecord | null>;

  /** Deletes the webhook and its deliveries (pending ones are never sent); false when not the wallet's. */
  deleteWebhook(params: { id: string; wallet: string }): Promise<boolean>;

  /**
   * In one atomic step: records each event not recorded before (by id) with its deliveries, counts each against its
   * wallet's month (`month`, e.g. `2025-03`; over `monthlyLimit` the delivery is `dropped`), and sets the cursors
   * (detector positions). Returns how many deliveries became pending.
   */
  recordEvents(params: EventBatch): Promise<number>;

  /** A detector's position; null before its first step. */
  getCursor(name: string): Promise<string | null>;

  /** Events counted against the wallet in `month`. */
  countWebhookEvents(params: { wallet: string; month: string }): Promise<number>;

  /**
   * Claims up to `limit` pending deliveries that are due (and not leased, or whose lease ran out) of active
   * webhooks: each is leased to this caller until `now + leaseMs`; of concurrent callers, each delivery goes to one.
   */
  claimDeliveries(params: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]>;

  /**
   * Records an attempt of a claimed delivery (only while `lease` is still its lease): delivered when `ok`, else
   * pending again at `retryAt`, or failed when `retryAt` is null. A webhook failing since `disableAfterMs` or longer
   * is disabled with `disabledReason`, and its pending deliveries fail. False when the lease was lost.
   */
  finishDelivery(params: FinishedAttempt): Promise<boolean>;

  getDelivery(id: string): Promise<DeliveryRecord | null>;

  /** The webhook's deliveries, newest first. */
  listDeliveries(params: { webhookId: string; limit: number; offset: number }): Promise<DeliveryRecord[]>;

  /** Makes a delivery of the webhook pending and due at `now` again (its payload unchanged); null if unknown. */
  redeliver(params: { webhookId: string; deliveryId: string; now: number }): Promise<DeliveryRecord | null>;

  /** How many deliveries are pending and since when, and how many webhooks are disabled. */
  outboxStats(): Promise<OutboxStats>;
}

/** The `error` of a delivery dropped because its wallet's plan had no events left this month. */
export function monthlyLimitMessage(limit: number): string {
  return `not sent: the plan's ${limit} events this month are used up`;
}

/** The `disabledReason` of a webhook the service disabled. */
export function disabledMessage(failingSince: number, now: number): string {
  return `every delivery failed from ${new Date(failingSince).toISOString()} to ${new Date(now).toISOString()}`;
}
