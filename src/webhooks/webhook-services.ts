import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import type { Webhook, WebhookDelivery, WebhookFiltersInput } from '../../subgraphs/webhooks/types.js';
import { invalidArgument, parseArgument } from '../arguments/parse-argument.js';
import {
  deliveriesLimit,
  deliveriesOffset,
  deliveryId as deliveryIdArgument,
  webhookId,
} from '../arguments/webhook-arguments.js';
import {
  createWebhookBody,
  missingFilter,
  parseWebhookInput,
  updateWebhookBody,
  type WebhookFilters,
} from '../arguments/webhook-body.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';
import type { DeliveryRecord, WebhookChanges, WebhookRecord } from '../store/webhook-store.js';
import { eventId } from './event-id.js';
import type { PublishEvents } from './event-publisher.js';
import { PING_EVENT } from './event-types.js';
import { generateWebhookSecret } from './sign-delivery.js';
import { eventMonth, WEBHOOK_PLANS } from './webhook-plans.js';
import { assertDeliverableUrl } from './webhook-url.js';

/** A webhook id parsed with `webhookId`: `own` takes only these, so a call parses its id once, before anything else. */
const parsedWebhookId = webhookId.brand<'ParsedWebhookId'>();
type ParsedWebhookId = z.output<typeof parsedWebhookId>;

/**
 * The `id` argument, parsed first: REST checks the path before the query and the body, so a call bad in both names
 * the id on every surface.
 */
const parseWebhookId = (id: string): ParsedWebhookId => parseArgument(parsedWebhookId, 'id', id);

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** GraphQL null (an omitted optional argument) is absent, as in the REST body. */
const withoutNulls = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

/** A GraphQL input as the REST body would carry it: nulls dropped, in the filters and their thresholds too. */
function asBody(input: { filters?: WebhookFiltersInput | null } & object): Record<string, unknown> {
  const body: Record<string, unknown> = withoutNulls(input);
  if (input.filters) {
    const filters: Record<string, unknown> = withoutNulls(input.filters);
    if (input.filters.prices) filters.prices = input.filters.prices.map((t) => withoutNulls(t));
    body.filters = filters;
  }
  return body;
}

function webhookShape(w: WebhookRecord, secret: string | null = null): Webhook {
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

/** Webhooks belong to a wallet: a SIWE session or one of the wallet's API keys must call. */
function requireWallet(caller: CallerIdentity): string {
  if (!caller.wallet || caller.mode === 'anonymous') {
    throw new ApiError('UNAUTHORIZED', 'webhooks need a SIWE session (Authorization: Bearer) or an API key');
  }
  return caller.wallet.toLowerCase();
}

/**
 * Webhook subscriptions of the caller's wallet, their deliveries, test pings and redeliveries
 * (docs/api-contract.md#events).
 * @example const webhooks = createWebhookServices({ store, publish, allowLocalUrls: true, kick: () => worker.kick() })
 */
export function createWebhookServices(p: {
  store: Store;
  publish: PublishEvents;
  /** WEBHOOK_ALLOW_LOCAL_URLS: http and private targets accepted. */
  allowLocalUrls: boolean;
  /** Wakes the delivery worker (a redelivery was queued). */
  kick: () => void;
  /** Awaited once a webhook is stored, before its creation is answered: the detectors start watching its events. */
  created?: (events: readonly string[]) => Promise<void>;
  now?: () => number;
  resolveHost?: (host: string) => Promise<string[]>;
}): WebhookServices {
  const now = p.now ?? Date.now;
  const checkUrl = (url: string) => assertDeliverableUrl(url, { allowLocal: p.allowLocalUrls, resolve: p.resolveHost });

  /**
   * Another wallet's webhook is as absent as a deleted one: ids reveal nothing. The id is parsed before the caller is
   * asked for, as REST refuses a malformed id before it asks who calls.
   */
  const own = async (caller: CallerIdentity, id: ParsedWebhookId): Promise<WebhookRecord | null> => {
    const wallet = requireWallet(caller);
    const webhook = await p.store.getWebhook(id);
    return webhook && webhook.wallet === wallet ? webhook : null;
  };

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
