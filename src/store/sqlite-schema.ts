import type Database from 'better-sqlite3';

/** Schema versions, applied in order; PRAGMA user_version records how many have run. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE quota_counters (
    key        TEXT    NOT NULL,
    window_ms  INTEGER NOT NULL,
    window     INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (key, window_ms, window)
  ) WITHOUT ROWID;
  CREATE INDEX quota_counters_expiry ON quota_counters (expires_at);

  CREATE TABLE concurrency_slots (
    key        TEXT    NOT NULL,
    token      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (key, token)
  ) WITHOUT ROWID;
  CREATE INDEX concurrency_slots_expiry ON concurrency_slots (expires_at);

  CREATE TABLE siwe_nonces (
    nonce      TEXT    PRIMARY KEY,
    domain     TEXT    NOT NULL,
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX siwe_nonces_expiry ON siwe_nonces (expires_at);

  CREATE TABLE revoked_sessions (
    jti        TEXT    PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX revoked_sessions_expiry ON revoked_sessions (expires_at);

  CREATE TABLE wallets (
    address       TEXT    PRIMARY KEY,
    first_seen_at INTEGER NOT NULL,
    last_seen_at  INTEGER NOT NULL
  );

  CREATE TABLE api_keys (
    id           TEXT    PRIMARY KEY,
    wallet       TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    key_hash     TEXT    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    daily_limit  INTEGER NOT NULL,
    minute_limit INTEGER NOT NULL,
    credits      INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0)
  );
  CREATE INDEX api_keys_wallet ON api_keys (wallet, created_at, id);

  -- One row per applied payment reference, kept after the key is deleted so a reference never credits twice.
  CREATE TABLE credit_ledger (
    reference  TEXT    PRIMARY KEY,
    key_id     TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX credit_ledger_key ON credit_ledger (key_id);

  CREATE TABLE spent_payment_nonces (
    key        TEXT    PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX spent_payment_nonces_expiry ON spent_payment_nonces (expires_at);

  CREATE TABLE subnames (
    parent     TEXT    NOT NULL,
    label      TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    records    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (parent, label)
  );
  CREATE INDEX subnames_order ON subnames (parent, created_at, label);
  `,
  `
  -- Secrets every instance must share (the JWT signing secret), written once.
  CREATE TABLE service_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- A session is one sign-in and its refreshes: one current token at a time, ended as a whole by logout.
  DROP TABLE revoked_sessions;
  CREATE TABLE siwe_sessions (
    session_id TEXT    PRIMARY KEY,
    token_id   TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX siwe_sessions_expiry ON siwe_sessions (expires_at);

  -- What the signed message must name besides the domain (nonces live 5 minutes: old rows need no real value).
  ALTER TABLE siwe_nonces ADD COLUMN uri TEXT NOT NULL DEFAULT '';
  ALTER TABLE siwe_nonces ADD COLUMN chain_id INTEGER NOT NULL DEFAULT 1;
  `,
  `
  -- Webhooks: subscriptions, each wallet's plan, and the delivery outbox (src/store/webhook-store.ts).
  CREATE TABLE webhook_plans (
    wallet TEXT PRIMARY KEY,
    plan   TEXT NOT NULL
  );

  CREATE TABLE webhooks (
    id              TEXT    PRIMARY KEY,
    wallet          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    events          TEXT    NOT NULL,
    filters         TEXT    NOT NULL,
    secret          TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    failing_since   INTEGER,
    disabled_reason TEXT
  );
  CREATE INDEX webhooks_wallet ON webhooks (wallet, created_at, id);

  -- One row per event ever recorded: recording it again does nothing.
  CREATE TABLE webhook_events (
    id          TEXT    PRIMARY KEY,
    recorded_at INTEGER NOT NULL
  );

  CREATE TABLE webhook_deliveries (
    id              TEXT    PRIMARY KEY,
    webhook_id      TEXT    NOT NULL,
    wallet          TEXT    NOT NULL,
    event_id        TEXT    NOT NULL,
    event_type      TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    next_attempt_at INTEGER,
    last_attempt_at INTEGER,
    delivered_at    INTEGER,
    response_code   INTEGER,
    latency_ms      INTEGER,
    error           TEXT,
    lease           TEXT,
    lease_until     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
  CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, id);

  CREATE TABLE webhook_event_counts (
    wallet TEXT    NOT NULL,
    month  TEXT    NOT NULL,
    count  INTEGER NOT NULL,
    PRIMARY KEY (wallet, month)
  ) WITHOUT ROWID;

  -- Where each event detector has got to (a block number, a chain time, a poll position).
  CREATE TABLE webhook_cursors (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- A debit named by its caller, kept for a while so that refundDebit gives it back exactly once.
  CREATE TABLE credit_debit_receipts (
    id         TEXT    PRIMARY KEY,
    key_id     TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX credit_debit_receipts_expiry ON credit_debit_receipts (expires_at);
  `,
];

/** Tables holding rows that expire; swept opportunistically by the SQLite store. */
export const EXPIRING_TABLES = [
  'quota_counters',
  'concurrency_slots',
  'siwe_nonces',
  'siwe_sessions',
  'spent_payment_nonces',
  'credit_debit_receipts',
] as const;

/** Brings the database up to the newest schema version, one transaction per step. */
export function migrateSqliteSchema(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
