import type Database from 'better-sqlite3';
import { toDelivery, toWebhook, webhookStatements } from './sqlite-webhook-statements.js';
import { webhookTransactions } from './sqlite-webhook-transactions.js';
import { assertCount, normalizeAddress } from './store-arguments.js';
import type {
  ClaimedDelivery,
  DeliveryRecord,
  EventBatch,
  FinishedAttempt,
  NewWebhook,
  OutboxStats,
  WebhookPlanName,
  WebhookRecord,
  WebhookStore,
  WebhookUpdate,
} from './webhook-store.js';

/**
 * The webhook tables of the SQLite store; every read-modify-write is one IMMEDIATE transaction, so several
 * processes on one file claim each delivery once.
 */
export class SqliteWebhooks implements WebhookStore {
  private readonly sql;
  private readonly tx;

  constructor(db: Database.Database) {
    this.sql = webhookStatements(db);
    this.tx = webhookTransactions(db, this.sql);
  }

  async getWebhookPlan(wallet: string): Promise<WebhookPlanName> {
    return this.sql.planGet.get(normalizeAddress(wallet))?.plan ?? 'free';
  }

  async setWebhookPlan(params: { wallet: string; plan: WebhookPlanName }): Promise<void> {
    this.sql.planSet.run(normalizeAddress(params.wallet), params.plan);
  }

  async createWebhook(params: { webhook: NewWebhook; maxWebhooks: number | null }): Promise<WebhookRecord | null> {
    return this.tx.create.immediate(params.webhook, params.maxWebhooks);
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    const row = this.sql.webhookGet.get(id);
    return row ? toWebhook(row) : null;
  }

  async listWebhooks(wallet: string): Promise<WebhookRecord[]> {
    return this.sql.webhooksOf.all(normalizeAddress(wallet)).map(toWebhook);
  }

  async listActiveWebhooks(): Promise<WebhookRecord[]> {
    return this.sql.webhooksActive.all().map(toWebhook);
  }

  async updateWebhook(params: WebhookUpdate): Promise<WebhookRecord | null> {
    return this.tx.update.immediate(params.id, params.wallet, params.changes, params.now);
  }

  async deleteWebhook(params: { id: string; wallet: string }): Promise<boolean> {
    return this.tx.remove.immediate(params.id, params.wallet);
  }

  async recordEvents(params: EventBatch): Promise<number> {
    return this.tx.record.immediate(params.events, params.cursors ?? {}, params.month, params.now);
  }

  async getCursor(name: string): Promise<string | null> {
    return this.sql.cursorGet.get(name)?.value ?? null;
  }

  async countWebhookEvents(params: { wallet: string; month: string }): Promise<number> {
    return this.sql.countGet.get(normalizeAddress(params.wallet), params.month)?.count ?? 0;
  }

  async claimDeliveries(params: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    assertCount('limit', params.limit, 1);
    assertCount('leaseMs', params.leaseMs, 1);
    return this.tx.claim.immediate(params.now, params.leaseMs, params.limit);
  }

  async finishDelivery(params: FinishedAttempt): Promise<boolean> {
    return this.tx.finish.immediate(params);
  }

  async getDelivery(id: string): Promise<DeliveryRecord | null> {
    const row = this.sql.deliveryGet.get(id);
    return row ? toDelivery(row) : null;
  }

  async listDeliveries(params: { webhookId: string; limit: number; offset: number }): Promise<DeliveryRecord[]> {
    assertCount('limit', params.limit, 0);
    assertCount('offset', params.offset, 0);
    return this.sql.deliveriesOf.all(params.webhookId, params.limit, params.offset).map(toDelivery);
  }

  async redeliver(params: { webhookId: string; deliveryId: string; now: number }): Promise<DeliveryRecord | null> {
    const row = this.sql.redeliver.get(params.now, params.deliveryId, params.webhookId);
    return row ? toDelivery(row) : null;
  }

  async outboxStats(): Promise<OutboxStats> {
    const { pending, oldest } = this.sql.pendingStats.get()!;
    return { pending, oldestPendingAt: oldest, disabledWebhooks: this.sql.disabledCount.get()!.n };
  }
}
