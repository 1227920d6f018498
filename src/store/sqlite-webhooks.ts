import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { assertCount, normalizeAddress } from './store-arguments.js';
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  disabledMessage,
  type EventBatch,
  type FinishedAttempt,
  monthlyLimitMessage,
  type NewWebhook,
  type OutboxEvent,
  type OutboxStats,
  type WebhookChanges,
  type WebhookPlanName,
  type WebhookRecord,
  type WebhookStore,
  type WebhookUpdate,
} from './webhook-store.js';

interface WebhookRow {
  id: string;
  wallet: string;
  url: string;
  events: string;
  filters: string;
  secret: string;
  status: WebhookRecord['status'];
  created_at: number;
  updated_at: number;
  failing_since: number | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  wallet: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: DeliveryRecord['status'];
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  response_code: number | null;
  latency_ms: number | null;
  error: string | null;
  lease: string | null;
  lease_until: number;
}

const toWebhook = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  wallet: row.wallet,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  filters: JSON.parse(row.filters) as Record<string, unknown>,
  secret: row.secret,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  failingSince: row.failing_since,
  disabledReason: row.disabled_reason,
});

const toDelivery = (row: DeliveryRow): DeliveryRecord => ({
  id: row.id,
  webhookId: row.webhook_id,
  wallet: row.wallet,
  eventId: row.event_id,
  eventType: row.event_type,
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.created_at,
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  deliveredAt: row.delivered_at,
  responseCode: row.response_code,
  latencyMs: row.latency_ms,
  error: row.error,
});

/**
 * The webhook tables of the SQLite store; every read-modify-write is one IMMEDIATE transaction, so several
 * processes on one file claim each delivery once.
 */
export class SqliteWebhooks implements WebhookStore {
  private readonly sql;
  private readonly tx;

  constructor(db: Database.Database) {
    const prepare = <Row = unknown>(source: string) => db.prepare<unknown[], Row>(source);
    const sql = {
      planGet: prepare<{ plan: WebhookPlanName }>('SELECT plan FROM webhook_plans WHERE wallet = ?'),
      planSet: prepare(
        'INSERT INTO webhook_plans (wallet, plan) VALUES (?, ?) ON CONFLICT (wallet) DO UPDATE SET plan = excluded.plan',
      ),
      webhookCount: prepare<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE wallet = ?'),
      webhookInsert: prepare<WebhookRow>(
        `INSERT INTO webhooks (id, wallet, url, events, filters, secret, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?) RETURNING *`,
      ),
      webhookGet: prepare<WebhookRow>('SELECT * FROM webhooks WHERE id = ?'),
      webhooksOf: prepare<WebhookRow>('SELECT * FROM webhooks WHERE wallet = ? ORDER BY created_at, id'),
      webhooksActive: prepare<WebhookRow>("SELECT * FROM webhooks WHERE status = 'active' ORDER BY created_at, id"),
      webhookUpdate: prepare<WebhookRow>(
        `UPDATE webhooks SET url = ?, events = ?, filters = ?, status = ?, updated_at = ?, failing_since = ?,
           disabled_reason = ? WHERE id = ? RETURNING *`,
      ),
      webhookDelete: prepare('DELETE FROM webhooks WHERE id = ? AND wallet = ?'),
      webhookFailing: prepare('UPDATE webhooks SET failing_since = coalesce(failing_since, ?) WHERE id = ?'),
      webhookHealthy: prepare('UPDATE webhooks SET failing_since = NULL WHERE id = ?'),
      webhookDisable: prepare(
        "UPDATE webhooks SET status = 'disabled', disabled_reason = ?, updated_at = ? WHERE id = ? AND status = 'active'",
      ),
      deliveriesDelete: prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?'),
      deliveriesFailAll: prepare(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = ?, lease = NULL
         WHERE webhook_id = ? AND status = 'pending'`,
      ),
      eventInsert: prepare('INSERT INTO webhook_events (id, recorded_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'),
      countGet: prepare<{ count: number }>('SELECT count FROM webhook_event_counts WHERE wallet = ? AND month = ?'),
      countAdd: prepare(
        `INSERT INTO webhook_event_counts (wallet, month, count) VALUES (?, ?, 1)
         ON CONFLICT (wallet, month) DO UPDATE SET count = count + 1`,
      ),
      deliveryInsert: prepare(
        `INSERT INTO webhook_deliveries (id, webhook_id, wallet, event_id, event_type, payload, status, created_at,
           next_attempt_at, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      ),
      cursorSet: prepare(
        'INSERT INTO webhook_cursors (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      ),
      cursorGet: prepare<{ value: string }>('SELECT value FROM webhook_cursors WHERE name = ?'),
      due: prepare<DeliveryRow & { url: string; secret: string }>(
        `SELECT d.*, w.url AS url, w.secret AS secret FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.lease_until <= ? AND w.status = 'active'
         ORDER BY d.next_attempt_at, d.id LIMIT ?`,
      ),
      lease: prepare('UPDATE webhook_deliveries SET lease = ?, lease_until = ? WHERE id = ?'),
      deliveryGet: prepare<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?'),
      deliveryFinish: prepare(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?,
           delivered_at = ?, response_code = ?, latency_ms = ?, error = ?, lease = NULL, lease_until = 0
         WHERE id = ?`,
      ),
      deliveriesOf: prepare<DeliveryRow>(
        'SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
      ),
      redeliver: prepare<DeliveryRow>(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease = NULL, lease_until = 0
         WHERE id = ? AND webhook_id = ? AND status != 'dropped' RETURNING *`,
      ),
      pendingStats: prepare<{ pending: number; oldest: number | null }>(
        "SELECT count(*) AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      ),
      disabledCount: prepare<{ n: number }>("SELECT count(*) AS n FROM webhooks WHERE status = 'disabled'"),
    };
    this.sql = sql;
    this.tx = {
      create: db.transaction((webhook: NewWebhook, maxWebhooks: number | null): WebhookRecord | null => {
        const wallet = normalizeAddress(webhook.wallet);
        if (maxWebhooks !== null && sql.webhookCount.get(wallet)!.n >= maxWebhooks) return null;
        const row = sql.webhookInsert.get(
          webhook.id,
          wallet,
          webhook.url,
          JSON.stringify(webhook.events),
          JSON.stringify(webhook.filters),
          webhook.secret,
          webhook.createdAt,
          webhook.createdAt,
        )!;
        return toWebhook(row);
      }),
      update: db.transaction((id: string, wallet: string, changes: WebhookChanges, now: number) => {
        const row = sql.webhookGet.get(id);
        if (!row || row.wallet !== normalizeAddress(wallet)) return null;
        const current = toWebhook(row);
        const status = changes.status ?? current.status;
        const resumed = changes.status === 'active' && current.status !== 'active';
        return toWebhook(
          sql.webhookUpdate.get(
            changes.url ?? current.url,
            JSON.stringify(changes.events ?? current.events),
            JSON.stringify(changes.filters ?? current.filters),
            status,
            now,
            resumed ? null : current.failingSince,
            resumed ? null : current.disabledReason,
            id,
          )!,
        );
      }),
      remove: db.transaction((id: string, wallet: string): boolean => {
        if (sql.webhookDelete.run(id, normalizeAddress(wallet)).changes === 0) return false;
        sql.deliveriesDelete.run(id);
        return true;
      }),
      record: db.transaction(
        (events: OutboxEvent[], cursors: Record<string, string>, month: string, now: number): number => {
          let pending = 0;
          for (const event of events) {
            if (sql.eventInsert.run(event.id, now).changes === 0) continue;
            for (const target of event.targets) {
              const wallet = normalizeAddress(target.wallet);
              let status: DeliveryRecord['status'] = 'pending';
              if (target.monthlyLimit !== null) {
                const used = sql.countGet.get(wallet, month)?.count ?? 0;
                if (used >= target.monthlyLimit) status = 'dropped';
                else sql.countAdd.run(wallet, month);
              }
              const error = status === 'dropped' ? monthlyLimitMessage(target.monthlyLimit!) : null;
              sql.deliveryInsert.run(
                target.deliveryId,
                target.webhookId,
                wallet,
                event.id,
                event.type,
                event.payload,
                status,
                now,
                status === 'pending' ? now : null,
                error,
              );
              if (status === 'pending') pending++;
            }
          }
          for (const [name, value] of Object.entries(cursors)) sql.cursorSet.run(name, value);
          return pending;
        },
      ),
      claim: db.transaction((now: number, leaseMs: number, limit: number): ClaimedDelivery[] => {
        return sql.due.all(now, now, limit).map(({ url, secret, ...row }) => {
          const lease = randomUUID();
          sql.lease.run(lease, now + leaseMs, row.id);
          return { delivery: toDelivery(row), lease, url, secret };
        });
      }),
      finish: db.transaction((p: FinishedAttempt): boolean => {
        const row = sql.deliveryGet.get(p.id);
        if (row?.status !== 'pending' || row.lease !== p.lease) return false;
        const { attempt } = p;
        const status = attempt.ok ? 'delivered' : p.retryAt === null ? 'failed' : 'pending';
        sql.deliveryFinish.run(
          status,
          status === 'pending' ? p.retryAt : null,
          p.now,
          attempt.ok ? p.now : null,
          attempt.responseCode,
          Math.round(attempt.latencyMs),
          attempt.error,
          p.id,
        );
        if (attempt.ok) {
          sql.webhookHealthy.run(row.webhook_id);
          return true;
        }
        sql.webhookFailing.run(p.now, row.webhook_id);
        const failingSince = sql.webhookGet.get(row.webhook_id)?.failing_since;
        if (failingSince != null && p.now - failingSince >= p.disableAfterMs) {
          const reason = disabledMessage(failingSince, p.now);
          if (sql.webhookDisable.run(reason, p.now, row.webhook_id).changes > 0) {
            sql.deliveriesFailAll.run(`webhook disabled: ${reason}`, row.webhook_id);
          }
        }
        return true;
      }),
    };
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
