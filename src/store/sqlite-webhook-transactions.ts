import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { toDelivery, toWebhook, type WebhookStatements } from './sqlite-webhook-statements.js';
import { normalizeAddress } from './store-arguments.js';
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  disabledMessage,
  type FinishedAttempt,
  monthlyLimitMessage,
  type NewWebhook,
  type OutboxEvent,
  type WebhookChanges,
  type WebhookRecord,
} from './webhook-store.js';

/** A new webhook, unless the wallet already has `maxWebhooks`. */
function createWebhook(sql: WebhookStatements, webhook: NewWebhook, maxWebhooks: number | null): WebhookRecord | null {
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
}

/** The wallet's webhook with the changes made; resuming it forgets why it failed. Null if not the wallet's. */
function updateWebhook(
  sql: WebhookStatements,
  id: string,
  wallet: string,
  changes: WebhookChanges,
  now: number,
): WebhookRecord | null {
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
}

/** The wallet's webhook and its deliveries removed; false if it had none by that id. */
function removeWebhook(sql: WebhookStatements, id: string, wallet: string): boolean {
  if (sql.webhookDelete.run(id, normalizeAddress(wallet)).changes === 0) return false;
  sql.deliveriesDelete.run(id);
  return true;
}

/**
 * Each event not recorded before, with a delivery per target (dropped past the wallet's monthly limit), and the
 * detectors' cursors; how many deliveries are pending.
 */
function recordEvents(
  sql: WebhookStatements,
  events: OutboxEvent[],
  cursors: Record<string, string>,
  month: string,
  now: number,
): number {
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
}

/** Up to `limit` due deliveries, each leased to this claimer until now + leaseMs. */
function claimDeliveries(sql: WebhookStatements, now: number, leaseMs: number, limit: number): ClaimedDelivery[] {
  return sql.due.all(now, now, limit).map(({ url, secret, ...row }) => {
    const lease = randomUUID();
    sql.lease.run(lease, now + leaseMs, row.id);
    return { delivery: toDelivery(row), lease, url, secret };
  });
}

/**
 * An attempt's outcome, if the lease is still the claimer's: delivered, retried or failed; a webhook failing for
 * `disableAfterMs` is disabled and its pending deliveries fail.
 */
function finishDelivery(sql: WebhookStatements, p: FinishedAttempt): boolean {
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
}

/**
 * The webhook tables' read-modify-writes, each one transaction (run `.immediate`, so several processes on one file
 * claim each delivery once).
 * @example webhookTransactions(db, sql).claim.immediate(now, 30_000, 10)
 */
export function webhookTransactions(db: Database.Database, sql: WebhookStatements) {
  return {
    create: db.transaction((webhook: NewWebhook, maxWebhooks: number | null) =>
      createWebhook(sql, webhook, maxWebhooks),
    ),
    update: db.transaction((id: string, wallet: string, changes: WebhookChanges, now: number) =>
      updateWebhook(sql, id, wallet, changes, now),
    ),
    remove: db.transaction((id: string, wallet: string) => removeWebhook(sql, id, wallet)),
    record: db.transaction((events: OutboxEvent[], cursors: Record<string, string>, month: string, now: number) =>
      recordEvents(sql, events, cursors, month, now),
    ),
    claim: db.transaction((now: number, leaseMs: number, limit: number) => claimDeliveries(sql, now, leaseMs, limit)),
    finish: db.transaction((p: FinishedAttempt) => finishDelivery(sql, p)),
  };
}
