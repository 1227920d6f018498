import 'reflect-metadata';
import { z } from 'zod';
import { deliveriesLimit, deliveriesOffset, deliveryId, webhookId } from '../../src/arguments/webhook-arguments.js';
import { createWebhookBody, updateWebhookBody } from '../../src/arguments/webhook-body.js';
import { WebhooksResolver } from '../../subgraphs/webhooks/resolvers.js';
import { omitWhenNull } from '../response-shape.js';
import { rootField } from '../root-field.js';
import type { OperationRow, RouteRow } from '../route-row.js';

const byId = z.object({ id: webhookId });

const WHO =
  'Needs a SIWE session (`Authorization: Bearer`) or an API key (`X-API-Key`): webhooks belong to the wallet; 401 without one.';
const NOT_YOURS = '404 when the wallet holds no webhook with this id.';

/** The 404 message when the wallet holds no webhook with the id asked. */
const NO_SUCH_WEBHOOK = 'no webhook with this id belongs to this wallet';

/** A row on one webhook of the wallet, by its id: who may call it, 401 without a caller and 404 for another's id. */
const OWN_WEBHOOK = {
  description: `${WHO} ${NOT_YOURS}`,
  errors: [401, 404],
  credentials: 'wallet',
  notFound: NO_SUCH_WEBHOOK,
} satisfies Partial<OperationRow>;

/** A generated secret is shown once; a secret the caller chose is not echoed back. */
const withoutAbsentSecret = omitWhenNull('secret');

/**
 * docs/api-contract.md#events: webhooks of the caller's wallet, their deliveries, pings and redeliveries
 * (docs/webhooks.md).
 */
export const webhookRoutes: RouteRow[] = [
  {
    kind: 'operation',
    id: 'createWebhook',
    tool: 'create_webhook',
    method: 'POST',
    path: '/api/webhooks',
    tag: 'Subscribe',
    summary: 'Create a webhook: events of the chosen types, filtered, POSTed to your URL and signed',
    description: `${WHO} 402 \`PAYMENT_REQUIRED\` when the wallet's plan holds no more webhooks (Free 1, Pro 10). The URL must be https and a public host unless WEBHOOK_ALLOW_LOCAL_URLS is on. \`secret\` (whsec_…) is in the answer only when generated.`,
    tier: 'write',
    params: {
      body: createWebhookBody.meta({
        example: { url: 'https://hooks.example.org/ens', events: ['ens.transfer'], filters: { names: ['*.base.eth'] } },
      }),
    },
    field: rootField(WebhooksResolver.prototype.createWebhook),
    variables: (input) => input.body,
    shape: withoutAbsentSecret,
    errors: [401, 402],
    credentials: 'wallet',
  },
  {
    kind: 'operation',
    id: 'listWebhooks',
    tool: 'list_webhooks',
    method: 'GET',
    path: '/api/webhooks',
    tag: 'Subscribe',
    summary: "The wallet's webhooks (never their secrets) and its plan: webhooks and events this month, with limits",
    description: WHO,
    tier: 'light',
    field: rootField(WebhooksResolver.prototype.webhooks),
    errors: [401],
    credentials: 'wallet',
  },
  {
    kind: 'operation',
    id: 'getWebhook',
    tool: 'get_webhook',
    method: 'GET',
    path: '/api/webhooks/{id}',
    tag: 'Subscribe',
    summary: 'One webhook: URL, events, filters, status (active, paused, disabled with the reason)',
    ...OWN_WEBHOOK,
    tier: 'light',
    params: { path: byId },
    field: rootField(WebhooksResolver.prototype.webhook),
  },
  {
    kind: 'operation',
    id: 'updateWebhook',
    method: 'PATCH',
    path: '/api/webhooks/{id}',
    tag: 'Subscribe',
    summary: 'Change url, events, filters or status (active or paused; active also resumes a disabled webhook)',
    ...OWN_WEBHOOK,
    tier: 'medium',
    params: { path: byId, body: updateWebhookBody.meta({ example: { status: 'paused' } }) },
    field: rootField(WebhooksResolver.prototype.updateWebhook),
    variables: (input) => ({ ...input.body, id: input.path.id }),
  },
  {
    kind: 'operation',
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/webhooks/{id}',
    tag: 'Subscribe',
    summary: 'Delete a webhook; its pending deliveries are not sent',
    ...OWN_WEBHOOK,
    tier: 'medium',
    params: { path: byId },
    field: rootField(WebhooksResolver.prototype.deleteWebhook),
  },
  {
    kind: 'operation',
    id: 'testWebhook',
    tool: 'test_webhook',
    method: 'POST',
    path: '/api/webhooks/{id}/test',
    tag: 'Subscribe',
    summary: 'Send a `ping` event to the webhook (signed like every delivery; not counted against the plan)',
    description: `${WHO} ${NOT_YOURS} 409 \`CONFLICT\` when the webhook is paused or disabled.`,
    tier: 'medium',
    params: { path: byId },
    field: rootField(WebhooksResolver.prototype.testWebhook),
    errors: [401, 404, 409],
    credentials: 'wallet',
    notFound: NO_SUCH_WEBHOOK,
  },
  {
    kind: 'operation',
    id: 'listWebhookDeliveries',
    tool: 'list_webhook_deliveries',
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries',
    tag: 'Subscribe',
    summary: "The webhook's deliveries, newest first: status, attempts, last response code and latency",
    ...OWN_WEBHOOK,
    tier: 'light',
    params: {
      path: byId,
      query: z.object({
        limit: deliveriesLimit,
        offset: deliveriesOffset,
      }),
    },
    field: rootField(WebhooksResolver.prototype.webhookDeliveries),
  },
  {
    kind: 'operation',
    id: 'redeliverWebhookDelivery',
    tool: 'redeliver_webhook_delivery',
    method: 'POST',
    path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    tag: 'Subscribe',
    summary: 'Send a delivery again, with the same event id and payload',
    description: `${WHO} 404 when the webhook or the delivery is not the wallet's; 409 \`CONFLICT\` for an event dropped over the plan's monthly limit.`,
    tier: 'medium',
    params: { path: z.object({ id: webhookId, deliveryId }) },
    field: rootField(WebhooksResolver.prototype.redeliverWebhookDelivery),
    errors: [401, 404, 409],
    credentials: 'wallet',
    notFound: 'no such delivery of a webhook of this wallet',
  },
];
