import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import { webhookDeliveries } from './webhook-deliveries.js';
import type { WebhookServicesParams } from './webhook-services-params.js';
import { webhookSubscriptions } from './webhook-subscriptions.js';

/**
 * Webhook subscriptions of the caller's wallet, their deliveries, test pings and redeliveries
 * (docs/api-contract.md#events).
 * @example const webhooks = createWebhookServices({ store, publish, allowLocalUrls: true, kick: () => worker.kick() })
 */
export function createWebhookServices(p: WebhookServicesParams): WebhookServices {
  const params = { ...p, now: p.now ?? Date.now };
  return { ...webhookSubscriptions(params), ...webhookDeliveries(params) };
}
