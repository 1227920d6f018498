/**
 * What the webhooks subgraph asks of the server (SPEC "Events"): implemented in src/webhooks/webhook-services.ts
 * over the store, reached through `GraphContext.app.webhooks`.
 */
import type { CallerIdentity } from './account-services.js';

export interface PriceThresholdShape {
  symbol: string;
  above: number | null;
  below: number | null;
}

export interface WebhookFiltersShape {
  names: string[] | null;
  addresses: string[] | null;
  fids: number[] | null;
  prices: PriceThresholdShape[] | null;
}

export interface WebhookShape {
  id: string;
  url: string;
  events: string[];
  filters: WebhookFiltersShape;
  /** active, paused (by its owner) or disabled (by the service, after failing for 3 days). */
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Why the service disabled it; null unless disabled. */
  disabledReason: string | null;
  /** Since when every attempt has failed (ISO 8601); null after a success. */
  failingSince: string | null;
  /** The signing secret: only in the answer that generated it. */
  secret: string | null;
}

export interface WebhookPlanShape {
  name: string;
  /** Webhooks the wallet holds, and the plan's limit (null: unlimited). */
  webhooks: number;
  webhookLimit: number | null;
  /** The month counted (UTC, `2025-03`), events counted in it, and the plan's limit (null: unlimited). */
  month: string;
  eventsThisMonth: number;
  eventLimit: number | null;
}

export interface WebhookListShape {
  webhooks: WebhookShape[];
  count: number;
  plan: WebhookPlanShape;
}

export interface DeliveryShape {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** pending, delivered, failed, or dropped (over the plan's monthly events). */
  status: string;
  attempts: number;
  /** HTTP status of the last attempt; null when it got none. */
  responseCode: number | null;
  /** Duration of the last attempt in ms. */
  latencyMs: number | null;
  error: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface DeliveryListShape {
  webhookId: string;
  deliveries: DeliveryShape[];
  limit: number;
  offset: number;
  /** Offset of the next page; null on the last one. */
  nextOffset: number | null;
}

export interface WebhookResultShape {
  success: boolean;
  message: string;
}

export interface WebhookTestShape {
  success: boolean;
  message: string;
  delivery: DeliveryShape;
}

export interface PriceThresholdInputShape {
  symbol: string;
  above?: number | null;
  below?: number | null;
}

export interface WebhookFiltersInputShape {
  names?: string[] | null;
  addresses?: string[] | null;
  fids?: number[] | null;
  prices?: PriceThresholdInputShape[] | null;
}

export interface WebhookServices {
  create(
    caller: CallerIdentity,
    input: { url: string; events: string[]; filters?: WebhookFiltersInputShape | null; secret?: string | null },
  ): Promise<WebhookShape>;
  list(caller: CallerIdentity): Promise<WebhookListShape>;
  /** Null when the caller's wallet holds no webhook with this id. */
  get(caller: CallerIdentity, id: string): Promise<WebhookShape | null>;
  update(
    caller: CallerIdentity,
    id: string,
    changes: {
      url?: string | null;
      events?: string[] | null;
      filters?: WebhookFiltersInputShape | null;
      status?: string | null;
    },
  ): Promise<WebhookShape | null>;
  remove(caller: CallerIdentity, id: string): Promise<WebhookResultShape | null>;
  /** Queues a `ping` to the webhook. */
  test(caller: CallerIdentity, id: string): Promise<WebhookTestShape | null>;
  deliveries(
    caller: CallerIdentity,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<DeliveryListShape | null>;
  redeliver(caller: CallerIdentity, id: string, deliveryId: string): Promise<DeliveryShape | null>;
}
