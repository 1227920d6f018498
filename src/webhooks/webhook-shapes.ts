import type { Webhook, WebhookDelivery, WebhookFiltersInput } from '../../subgraphs/webhooks/types.js';
import type { WebhookFilters } from '../arguments/webhook-body.js';
import type { DeliveryRecord, WebhookRecord } from '../store/webhook-store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** GraphQL null (an omitted optional argument) is absent, as in the REST body. */
const withoutNulls = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

/** A GraphQL input as the REST body would carry it: nulls dropped, in the filters and their thresholds too. */
export function asBody(input: { filters?: WebhookFiltersInput | null } & object): Record<string, unknown> {
  const body: Record<string, unknown> = withoutNulls(input);
  if (input.filters) {
    const filters: Record<string, unknown> = withoutNulls(input.filters);
    if (input.filters.prices) filters.prices = input.filters.prices.map((t) => withoutNulls(t));
    body.filters = filters;
  }
  return body;
}

/** A stored webhook as the API shows it; `secret` only in the answer that made it, when the server generated it. */
export function webhookShape(w: WebhookRecord, secret: string | null = null): Webhook {
  const f = w.filters as WebhookFilters;
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    filters: {
      names: f.names ?? null,
      addresses: f.addresses ?? null,
      fids: f.fids ?? null,
      prices: f.prices?.map((p) => ({ symbol: p.symbol, above: p.above ?? null, below: p.below ?? null })) ?? null,
    },
    status: w.status,
    createdAt: iso(w.createdAt)!,
    updatedAt: iso(w.updatedAt)!,
    disabledReason: w.disabledReason,
    failingSince: iso(w.failingSince),
    secret,
  };
}

/** A stored delivery as the API shows it. */
export function deliveryShape(d: DeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    latencyMs: d.latencyMs,
    error: d.error,
    createdAt: iso(d.createdAt)!,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
  };
}
