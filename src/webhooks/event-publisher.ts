import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { OutboxEvent, WebhookPlanName } from '../store/webhook-store.js';
import { webhookWants } from './event-matching.js';
import { type DetectedEvent, eventPayload, PING_EVENT } from './event-types.js';
import { eventMonth, WEBHOOK_PLANS } from './webhook-plans.js';

/** Records detected events, with a delivery for each webhook that wants them, and the detector's cursors. */
export type PublishEvents = (events: DetectedEvent[], cursors?: Record<string, string>) => Promise<number>;

/**
 * The one way events enter the outbox: matched against the active webhooks, counted against each owner's plan,
 * recorded with the detector's new cursors in one atomic store step; `onRecorded` hears of new pending deliveries.
 * @example const publish = eventPublisher({ store, onRecorded: () => worker.kick() })
 */
export function eventPublisher(p: { store: Store; now?: () => number; onRecorded?: () => void }): PublishEvents {
  const now = p.now ?? Date.now;
  return async (events, cursors) => {
    const outbox: OutboxEvent[] = [];
    if (events.length > 0) {
      const webhooks = await p.store.listActiveWebhooks();
      const plans = new Map<string, WebhookPlanName>();
      for (const event of events) {
        const targets: OutboxEvent['targets'] = [];
        for (const webhook of webhooks.filter((w) => webhookWants(w, event))) {
          let plan = plans.get(webhook.wallet);
          if (!plan) {
            plan = await p.store.getWebhookPlan(webhook.wallet);
            plans.set(webhook.wallet, plan);
          }
          const limit = WEBHOOK_PLANS[plan].eventsPerMonth;
          targets.push({
            webhookId: webhook.id,
            wallet: webhook.wallet,
            deliveryId: randomUUID(),
            // A ping is never counted; an unlimited plan is counted (for its usage) without a ceiling.
            monthlyLimit: event.type === PING_EVENT ? null : (limit ?? Number.MAX_SAFE_INTEGER),
          });
        }
        if (targets.length > 0) outbox.push({ id: event.id, type: event.type, payload: eventPayload(event), targets });
      }
    }
    if (outbox.length === 0 && cursors === undefined) return 0;
    const at = now();
    const pending = await p.store.recordEvents({ events: outbox, cursors, month: eventMonth(at), now: at });
    if (pending > 0) p.onRecorded?.();
    return pending;
  };
}
