import type Database from 'better-sqlite3';
import type { DeliveryRecord, WebhookPlanName, WebhookRecord } from './webhook-store.js';

/** A row of the webhooks table, as SQLite returns it. */
export interface WebhookRow {
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

/** A row of the webhook_deliveries table, as SQLite returns it. */
export interface DeliveryRow {
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

export const toWebhook = (row: WebhookRow): WebhookRecord => ({
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

export const toDelivery = (row: DeliveryRow): DeliveryRecord => ({
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
 * The statements of the webhook tables, prepared once per database.
 * @example const sql = webhookStatements(db); sql.webhookGet.get(id)
 */
export function webhookStatements(db: Database.Database) {
  const prepare = <Row = unknown>(source: string) => db.prepare<unknown[], Row>(source);
  return {
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
}

/** The prepared statements of the webhook tables. */
export type WebhookStatements = ReturnType<typeof webhookStatements>;
