import { randomUUID } from 'node:crypto';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import { invalidArgument } from '../arguments/parse-argument.js';
import {
  createWebhookBody,
  missingFilter,
  parseWebhookInput,
  updateWebhookBody,
  type WebhookFilters,
} from '../arguments/webhook-body.js';
import { ApiError } from '../errors/api-error.js';
import type { WebhookChanges } from '../store/webhook-store.js';
import { generateWebhookSecret } from './sign-delivery.js';
import { ownWebhook, parseWebhookId, requireWallet } from './webhook-ownership.js';
import { eventMonth, WEBHOOK_PLANS } from './webhook-plans.js';
import type { WebhookServicesParams } from './webhook-services-params.js';
import { asBody, webhookShape } from './webhook-shapes.js';
import { assertDeliverableUrl } from './webhook-url.js';

export type WebhookSubscriptions = Pick<WebhookServices, 'create' | 'list' | 'get' | 'update' | 'remove'>;

/**
 * A wallet's webhook subscriptions: create within its plan, list with the month's usage, read, change, delete
 * (docs/api-contract.md#events).
 * @example const { create } = webhookSubscriptions({ ...params, now: Date.now })
 */
export function webhookSubscriptions(p: WebhookServicesParams & { now: () => number }): WebhookSubscriptions {
  const { now } = p;
  const checkUrl = (url: string) => assertDeliverableUrl(url, { allowLocal: p.allowLocalUrls, resolve: p.resolveHost });
  const own = ownWebhook.bind(null, p.store);
  return {
    async create(caller, input) {
      const body = parseWebhookInput(createWebhookBody, asBody(input));
      const wallet = requireWallet(caller);
      await checkUrl(body.url);
      const plan = await p.store.getWebhookPlan(wallet);
      const limits = WEBHOOK_PLANS[plan];
      const secret = body.secret ?? generateWebhookSecret();
      const created = await p.store.createWebhook({
        webhook: {
          id: randomUUID(),
          wallet,
          url: body.url,
          events: body.events,
          filters: body.filters,
          secret,
          createdAt: now(),
        },
        maxWebhooks: limits.webhooks,
      });
      if (!created) {
        throw new ApiError(
          'PAYMENT_REQUIRED',
          `the ${plan} plan allows ${limits.webhooks} webhook${limits.webhooks === 1 ? '' : 's'}: delete one, or move to a larger plan`,
          { plan, limit: limits.webhooks },
        );
      }
      await p.created?.(created.events);
      return webhookShape(created, body.secret === undefined ? secret : null);
    },

    async list(caller) {
      const wallet = requireWallet(caller);
      const at = now();
      const [webhooks, plan, used] = await Promise.all([
        p.store.listWebhooks(wallet),
        p.store.getWebhookPlan(wallet),
        p.store.countWebhookEvents({ wallet, month: eventMonth(at) }),
      ]);
      const limits = WEBHOOK_PLANS[plan];
      return {
        webhooks: webhooks.map((w) => webhookShape(w)),
        count: webhooks.length,
        plan: {
          name: plan,
          webhooks: webhooks.length,
          webhookLimit: limits.webhooks,
          month: eventMonth(at),
          eventsThisMonth: used,
          eventLimit: limits.eventsPerMonth,
        },
      };
    },

    async get(caller, id) {
      const webhook = await own(caller, parseWebhookId(id));
      return webhook && webhookShape(webhook);
    },

    async update(caller, id, input) {
      const parsedId = parseWebhookId(id);
      const changes = parseWebhookInput(updateWebhookBody, asBody(input)) as WebhookChanges & {
        filters?: WebhookFilters;
      };
      const current = await own(caller, parsedId);
      if (!current) return null;
      const missing = missingFilter(
        changes.events ?? current.events,
        changes.filters ?? (current.filters as WebhookFilters),
      );
      if (missing) throw invalidArgument('filters', missing);
      if (changes.url !== undefined) await checkUrl(changes.url);
      const updated = await p.store.updateWebhook({ id, wallet: current.wallet, changes, now: now() });
      return updated && webhookShape(updated);
    },

    async remove(caller, id) {
      const webhook = await own(caller, parseWebhookId(id));
      if (!webhook || !(await p.store.deleteWebhook({ id, wallet: webhook.wallet }))) return null;
      return { success: true, message: 'webhook deleted; its pending deliveries will not be sent' };
    },
  };
}
