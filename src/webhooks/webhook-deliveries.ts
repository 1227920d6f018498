import { randomUUID } from 'node:crypto';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import { parseArgument } from '../arguments/parse-argument.js';
import { deliveriesLimit, deliveriesOffset, deliveryId as deliveryIdArgument } from '../arguments/webhook-arguments.js';
import { ApiError } from '../errors/api-error.js';
import { eventId } from './event-id.js';
import { PING_EVENT } from './event-types.js';
import { ownWebhook, parseWebhookId } from './webhook-ownership.js';
import type { WebhookServicesParams } from './webhook-services-params.js';
import { deliveryShape } from './webhook-shapes.js';

export type WebhookDeliveries = Pick<WebhookServices, 'test' | 'deliveries' | 'redeliver'>;

/**
 * A webhook's deliveries: a test ping, the page of past deliveries, a redelivery (docs/api-contract.md#events).
 * @example const { redeliver } = webhookDeliveries({ ...params, now: Date.now })
 */
export function webhookDeliveries(p: WebhookServicesParams & { now: () => number }): WebhookDeliveries {
  const { now } = p;
  const own = ownWebhook.bind(null, p.store);
  return {
    async test(caller, id) {
      const webhook = await own(caller, parseWebhookId(id));
      if (!webhook) return null;
      if (webhook.status !== 'active') {
        throw new ApiError('CONFLICT', `the webhook is ${webhook.status}: set its status to active first`);
      }
      const at = now();
      const ping = {
        id: eventId(PING_EVENT, webhook.id, randomUUID()),
        type: PING_EVENT,
        timestamp: at,
        data: { webhookId: webhook.id, message: 'ping from the webhooks of this API' },
        onlyWebhook: webhook.id,
      } as const;
      await p.publish([ping]);
      const [delivery] = (await p.store.listDeliveries({ webhookId: webhook.id, limit: 5, offset: 0 })).filter(
        (d) => d.eventId === ping.id,
      );
      if (!delivery) throw new ApiError('CONFLICT', 'the webhook stopped being active; no ping was queued');
      return { success: true, message: 'ping queued for delivery', delivery: deliveryShape(delivery) };
    },

    async deliveries(caller, id, requested) {
      const parsedId = parseWebhookId(id);
      const page = {
        limit: parseArgument(deliveriesLimit, 'limit', requested.limit),
        offset: parseArgument(deliveriesOffset, 'offset', requested.offset),
      };
      const webhook = await own(caller, parsedId);
      if (!webhook) return null;
      const rows = await p.store.listDeliveries({ webhookId: id, limit: page.limit + 1, offset: page.offset });
      return {
        webhookId: id,
        deliveries: rows.slice(0, page.limit).map(deliveryShape),
        limit: page.limit,
        offset: page.offset,
        nextOffset: rows.length > page.limit ? page.offset + page.limit : null,
      };
    },

    async redeliver(caller, id, deliveryId) {
      const parsedId = parseWebhookId(id);
      parseArgument(deliveryIdArgument, 'deliveryId', deliveryId);
      const webhook = await own(caller, parsedId);
      if (!webhook) return null;
      const delivery = await p.store.getDelivery(deliveryId);
      if (delivery?.webhookId !== id) return null;
      if (delivery.status === 'dropped') {
        throw new ApiError('CONFLICT', 'this event was over the plan’s monthly limit and is not sent');
      }
      const again = await p.store.redeliver({ webhookId: id, deliveryId, now: now() });
      if (!again) return null;
      p.kick();
      return deliveryShape(again);
    },
  };
}
