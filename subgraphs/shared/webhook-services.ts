/**
 * What the webhooks subgraph asks of the server (docs/api-contract.md#events): implemented in
 * src/webhooks/webhook-services.ts
 * over the store, reached through `GraphContext.app.webhooks`.
 */
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookFiltersInput,
  WebhookList,
  WebhookResult,
  WebhookTest,
} from '../webhooks/types.js';
import type { CallerIdentity } from './account-services.js';

export interface WebhookServices {
  create(
    caller: CallerIdentity,
    input: { url: string; events: string[]; filters?: WebhookFiltersInput | null; secret?: string | null },
  ): Promise<Webhook>;
  list(caller: CallerIdentity): Promise<WebhookList>;
  /** Null when the caller's wallet holds no webhook with this id. */
  get(caller: CallerIdentity, id: string): Promise<Webhook | null>;
  update(
    caller: CallerIdentity,
    id: string,
    changes: {
      url?: string | null;
      events?: string[] | null;
      filters?: WebhookFiltersInput | null;
      status?: string | null;
    },
  ): Promise<Webhook | null>;
  remove(caller: CallerIdentity, id: string): Promise<WebhookResult | null>;
  /** Queues a `ping` to the webhook. */
  test(caller: CallerIdentity, id: string): Promise<WebhookTest | null>;
  deliveries(
    caller: CallerIdentity,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<WebhookDeliveryList | null>;
  redeliver(caller: CallerIdentity, id: string, deliveryId: string): Promise<WebhookDelivery | null>;
}
