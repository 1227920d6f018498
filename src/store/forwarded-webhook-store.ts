import type { WebhookStore } from './webhook-store.js';

/** Every method of {@link WebhookStore}; as a record of its keys, the compiler refuses a missing or an extra name. */
const WEBHOOK_STORE_METHODS: Record<keyof WebhookStore, true> = {
  getWebhookPlan: true,
  setWebhookPlan: true,
  createWebhook: true,
  getWebhook: true,
  listWebhooks: true,
  listActiveWebhooks: true,
  updateWebhook: true,
  deleteWebhook: true,
  recordEvents: true,
  getCursor: true,
  countWebhookEvents: true,
  claimDeliveries: true,
  finishDelivery: true,
  getDelivery: true,
  listDeliveries: true,
  redeliver: true,
  outboxStats: true,
};

/**
 * Base class of a store whose webhook part is another object (sqlite-webhooks.ts, redis-webhooks.ts): each
 * WebhookStore method of the instance is that object's own, so a store declares none of them again.
 * @example class SqliteStore extends ForwardedWebhookStore implements Store { constructor(db) { super(new SqliteWebhooks(db)) } }
 */
export const ForwardedWebhookStore = class {
  constructor(webhooks: WebhookStore) {
    for (const name of Object.keys(WEBHOOK_STORE_METHODS) as (keyof WebhookStore)[]) {
      Object.defineProperty(this, name, { value: webhooks[name].bind(webhooks), writable: true, configurable: true });
    }
  }
} as new (
  webhooks: WebhookStore,
) => WebhookStore;
