import type { WebhookPlanName } from '../store/webhook-store.js';

export interface WebhookPlanLimits {
  /** Webhooks a wallet may hold; null: no limit. */
  webhooks: number | null;
  /** Events delivered per calendar month (UTC); null: no limit. */
  eventsPerMonth: number | null;
}

/** docs/api-contract.md#events: Free (1 webhook, 1,000 events a month), Pro (10, 50,000), Enterprise (unlimited). */
export const WEBHOOK_PLANS: Record<WebhookPlanName, WebhookPlanLimits> = {
  free: { webhooks: 1, eventsPerMonth: 1_000 },
  pro: { webhooks: 10, eventsPerMonth: 50_000 },
  enterprise: { webhooks: null, eventsPerMonth: null },
};

/** The calendar month (UTC) events are counted in, e.g. `2025-03`. */
export function eventMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}
