/**
 * The one persistence interface of the service (DESIGN.md: store). Keys, credits, nonces,
 * sessions, counters, subnames, CCIP records and spent payment nonces live behind it.
 *
 * Two implementations pass the same contract suite (test/store/store-contract.ts):
 * SQLite (embedded default, durable) and Redis (shared by several instances).
 *
 * Rules every implementation keeps:
 * - every read-modify-write is atomic, also across instances sharing one backend;
 * - time is never read from a clock: callers pass `now` (ms since epoch), so tests are deterministic;
 * - times are integers in ms since epoch; wallet and owner addresses are stored lower-cased;
 * - API keys are known only by their hash: the store never sees a plaintext key.
 */

import type { WebhookStore } from './webhook-store.js';

/** One fixed-window counter: `limit` calls per window of `windowMs`, windows aligned to the epoch. */
export interface QuotaCounter {
  /** Caller-chosen identity of the counter, e.g. `ip:203.0.113.7:medium:day`. */
  key: string;
  limit: number;
  /** Window length; 86_400_000 gives windows that reset at midnight UTC. */
  windowMs: number;
  /** Its count must survive a crash of the process at any moment (an API key's: it decides when credits are charged). */
  durable?: boolean;
  /**
   * Whose counter it is (`ip:…`, `wallet:…`, {@link apiKeyOwner}); default `key`. The counters of one call share one
   * owner, and a debit's `count` is its key's: a store spread over shards (Redis Cluster) keeps an owner's together.
   */
  owner?: string;
}

/** The owner of an API key's counters, and of its credits: one entity, so a debit and its count move together. */
export function apiKeyOwner(keyId: string): string {
  return `key:${keyId}`;
}

/** Current values of a list of counters, in the order they were asked for. */
export interface QuotaReading {
  /** Count in the current window of each counter (after the increment when admitted). */
  counts: number[];
  /** End of the current window of each counter (ms), i.e. when it resets. */
  resetsAt: number[];
}

/** What {@link Store.admitKeyCall} is asked: the key, its concurrency slot (at most `max`, each held `ttlMs`) and counters. */
export interface KeyCallParams {
  keyId: string;
  slotKey: string;
  max: number;
  ttlMs: number;
  counters: QuotaCounter[];
  now: number;
}

/** Outcome of {@link Store.admitKeyCall}. */
export interface KeyCallAdmission {
  token: string | null;
  quota: QuotaDecision | null;
}

/** Outcome of {@link Store.consumeQuota}: admitted means every counter was incremented, refused means none was. */
export interface QuotaDecision extends QuotaReading {
  admitted: boolean;
}

/** A SIWE challenge nonce, valid until `expiresAt` and usable once, with what the signed message must name. */
export interface NonceRecord {
  nonce: string;
  domain: string;
  uri: string;
  chainId: number;
  issuedAt: number;
  expiresAt: number;
}

/** A wallet that has signed in: when it was first and last seen. */
export interface WalletRecord {
  address: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** What the caller supplies to create an API key; the plaintext key never reaches the store. */
export interface NewApiKey {
  id: string;
  wallet: string;
  name: string;
  /** Hash of the full key (e.g. SHA-256 hex); the only form in which the key is kept. */
  keyHash: string;
  /** Display form of the key start, e.g. `sk_live_ab12…`. */
  prefix: string;
  createdAt: number;
  dailyLimit: number;
  minuteLimit: number;
}

/** An active API key with its prepaid credit balance. */
export interface ApiKeyRecord extends NewApiKey {
  lastUsedAt: number | null;
  credits: number;
}

/** Outcome of {@link Store.addCredits}; `applied` is false when the reference was already used. */
export interface CreditResult {
  balance: number;
  applied: boolean;
}

/** Outcome of {@link Store.debitCredit}; `ok` is false when the balance was too low (it is left unchanged). */
export interface DebitResult {
  ok: boolean;
  balance: number;
}

/** Records served by the CCIP gateway for one subname. */
export interface SubnameRecords {
  /** Address per SLIP-44 coin type as a decimal string (`"60"` is ETH). */
  addresses: Record<string, string>;
  texts: Record<string, string>;
  contenthash?: string;
}

/** A subname `label.parent` registered through the write endpoints. */
export interface SubnameRecord {
  parent: string;
  label: string;
  owner: string;
  records: SubnameRecords;
  createdAt: number;
}

/** What {@link Store.refreshSession} compares and sets. */
export interface SessionRefresh {
  sessionId: string;
  tokenId: string;
  nextTokenId: string;
  expiresAt: number;
  now: number;
}

/** What {@link Store.rotateApiKey} replaces: the hash (and its display prefix) of the wallet's key `id`. */
export interface KeyRotation {
  id: string;
  wallet: string;
  keyHash: string;
  prefix: string;
  now: number;
}

/** What {@link Store.debitCredit} takes: `amount` (default 1) credits, and the counter a successful debit moves. */
export interface CreditDebit {
  keyId: string;
  amount?: number;
  count?: QuotaCounter;
  now: number;
  /**
   * Names this debit so that {@link Store.refundDebit} can give it back exactly once: a successful debit with an id
   * leaves a receipt for {@link DEBIT_RECEIPT_TTL_MS}, written in the same atomic step as the debit itself.
   */
  id?: string;
}

/** How long a debit's receipt is kept (a refund after that finds nothing to give back). */
export const DEBIT_RECEIPT_TTL_MS = 15 * 60_000;

/** What {@link Store.refundDebit} takes: the debit as it was asked (`keyId`, `id`, `count`, `now`). */
export type DebitRefund = Required<Pick<CreditDebit, 'keyId' | 'id' | 'now'>> & Pick<CreditDebit, 'count'>;

/** Where the data lives; never carries a password. */
export interface StoreDescription {
  kind: 'sqlite' | 'redis';
  /** SQLite file path, or Redis URL without its password. */
  location: string;
  /**
   * What the backend keeps across a restart, as last read: SQLite's file is `persistent`; Redis's AOF / RDB settings
   * are read at start, on every reconnect and every REDIS_DURABILITY_CHECK_MS (src/store/redis-durability.ts).
   */
  durability: StoreDurability;
}

/** Whether a restart of the backend keeps what the store wrote: `unknown` when Redis refuses CONFIG (managed Redis). */
export type StoreDurability = 'persistent' | 'volatile' | 'unknown';

/** The records a name's resolver events have set (keys only), as the ENS record index keeps them. */
export interface NameRecordKeys {
  /** ENSIP-5 text keys, in the order first indexed. */
  textKeys: string[];
  /** ENSIP-9/11 coin types, in the order first indexed. */
  coinTypes: number[];
  /** Whether a content hash was ever set. */
  contentHash: boolean;
}

/** Keys seen set on one name (its namehash `node`), added to what the index holds; at most `limits` of each kind. */
export interface NameRecordKeysUpdate {
  node: string;
  texts: readonly string[];
  coinTypes: readonly number[];
  contenthash: boolean;
  /** Most text keys and coin types kept per name: later ones are dropped. */
  limits: { texts: number; coinTypes: number };
}

/** Keys seen cleared on one name (a text set to "", an address or content hash set to none): the index drops them. */
export interface NameRecordKeysRemoval {
  node: string;
  texts: readonly string[];
  coinTypes: readonly number[];
  contenthash: boolean;
}

/** Webhook subscriptions, plans and the delivery outbox are declared in webhook-store.ts. */
export interface Store extends WebhookStore {
  // ── Rate limiting ────────────────────────────────────────────────────────────────────────

  /**
   * Admits a call only if every counter is below its limit, then increments all of them; otherwise increments none.
   * The counters share one owner (StoreArgumentError otherwise), as in refundQuota.
   */
  consumeQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaDecision>;

  /**
   * consumeQuota decided at once, with no promise, where the backend decides in this process (SQLite): the same
   * decision on the same counters. Absent where a decision takes a round trip (Redis); undefined when it cannot be
   * decided at once this time (nothing is counted then: call consumeQuota).
   */
  consumeQuotaNow?(params: { counters: QuotaCounter[]; now: number }): QuotaDecision | undefined;

  /** Reads counters without incrementing them (usage endpoint, rate-limit headers). */
  readQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaReading>;

  /**
   * Takes one count back from each counter's window at `now` (never below 0): for a call that was counted but never
   * answered, because the backend's answer came after the caller had been answered 503 (store-budget.ts).
   */
  refundQuota(params: { counters: QuotaCounter[]; now: number }): Promise<void>;

  // ── Concurrency slots ────────────────────────────────────────────────────────────────────

  /** Takes one of `max` concurrent slots for `key`, held until released or `ttlMs` elapses; null when all are taken. */
  acquireSlot(params: { key: string; max: number; ttlMs: number; now: number }): Promise<string | null>;

  /** Gives a slot back; releasing an unknown or expired token does nothing. */
  releaseSlot(params: { key: string; token: string }): Promise<void>;

  /**
   * An API key's counted call in one step, as acquireSlot on `slotKey` then, with a slot, consumeQuota on `counters`
   * and, once admitted, touchApiKey: the slot's token (null: every slot taken, nothing counted) and the quota decision
   * (null without a slot). The slot is held whether the quota admitted the call or not; release it with releaseSlot.
   * One round trip on Redis (the slot key, the counters and the key's record share the key's hash tag).
   */
  admitKeyCall(params: KeyCallParams): Promise<KeyCallAdmission>;

  // ── SIWE nonces and sessions ────────────────────────────────────────────────────────────

  /** Stores a fresh challenge nonce; it is forgotten after `expiresAt`. */
  putNonce(nonce: NonceRecord): Promise<void>;

  /** The record of a nonce still unused and live, without using it up; used, unknown or expired → null. */
  peekNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null>;

  /** Uses a nonce up: of concurrent callers exactly one gets the record; used, unknown or expired → null. */
  consumeNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null>;

  /** Opens a session (one sign-in) whose current token is `tokenId`, live until `expiresAt`. */
  openSession(params: { sessionId: string; tokenId: string; expiresAt: number; now: number }): Promise<void>;

  /**
   * Compare-and-set: while the session is live and `tokenId` is its current token, makes `nextTokenId` current (the
   * old one ends) and the session live until `expiresAt`; of concurrent callers with one token exactly one gets true.
   */
  refreshSession(params: SessionRefresh): Promise<boolean>;

  /** Ends the session: none of its tokens is current any more, and it can no longer be refreshed. */
  endSession(params: { sessionId: string; now: number }): Promise<void>;

  /** The session's current token id; null once it ended or expired, or if it was never opened. */
  currentSessionToken(params: { sessionId: string; now: number }): Promise<string | null>;

  // ── Wallets ──────────────────────────────────────────────────────────────────────────────

  /** Records that a wallet was seen (first-seen is kept, last-seen updated). */
  touchWallet(params: { address: string; now: number }): Promise<WalletRecord>;

  getWallet(address: string): Promise<WalletRecord | null>;

  // ── API keys ─────────────────────────────────────────────────────────────────────────────

  /** Creates an active key with 0 credits; throws ApiKeyConflictError if the id or hash exists. */
  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;

  /** The active key with this hash; rotated-away and deleted hashes never match. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;

  getApiKey(id: string): Promise<ApiKeyRecord | null>;

  /** The wallet's active keys, oldest first. */
  listApiKeys(wallet: string): Promise<ApiKeyRecord[]>;

  /** Replaces the key's hash, keeping id and credits; the old hash stops matching at once. Null if not the wallet's key. */
  rotateApiKey(params: KeyRotation): Promise<ApiKeyRecord | null>;

  /** Revokes the key and destroys its credits; false if it is not the wallet's active key. */
  deleteApiKey(params: { id: string; wallet: string; now: number }): Promise<boolean>;

  /** Sets lastUsedAt; does nothing for a deleted key. */
  touchApiKey(params: { id: string; now: number }): Promise<void>;

  // ── Credits ──────────────────────────────────────────────────────────────────────────────

  /** Adds credits once per payment `reference` (globally); throws ApiKeyNotFoundError for an unknown key. */
  addCredits(params: { keyId: string; amount: number; reference: string; now: number }): Promise<CreditResult>;

  /**
   * Takes `amount` (default 1) credits if the balance covers it; never goes below 0. A debit that succeeds also moves
   * `count` by one in the same atomic step (the credits a key spent today), so a crash cannot part the two; `count` is
   * owned by the key ({@link apiKeyOwner}).
   */
  debitCredit(params: CreditDebit): Promise<DebitResult>;

  /**
   * Gives back the debit named `id` if it was made and not yet given back: its credits return to the key and its
   * `count` moves back by one, in one atomic step with the receipt's removal. True when something was given back; a
   * debit that never ran (or whose write was lost with a failed-over Redis master) has no receipt and gives back
   * nothing, so a refund after a debit of unknown outcome is exact either way.
   */
  refundDebit(params: DebitRefund): Promise<boolean>;

  /** Balance of the key; 0 for an unknown or deleted key. */
  getCredits(keyId: string): Promise<number>;

  // ── x402 payments ────────────────────────────────────────────────────────────────────────

  /** True only the first time a payment nonce is seen (on every instance); remembered until `expiresAt`. */
  markPaymentNonceSpent(params: { key: string; expiresAt: number; now: number }): Promise<boolean>;

  /**
   * Forgets a spent payment nonce: its payment was refused or never settled (the chain did not take it), so the same
   * authorization may pay again. Unknown keys are ignored.
   */
  releasePaymentNonce(key: string): Promise<void>;

  // ── Service secrets ──────────────────────────────────────────────────────────────────────

  /**
   * The secret stored under `name`, creating it with `create()` if there is none; of concurrent first calls
   * (on any instance) one value wins and every caller gets it. For secrets instances must share (JWT signing).
   */
  getOrCreateSecret(name: string, create: () => string): Promise<string>;

  // ── Instances sharing the store ──────────────────────────────────────────────────────────

  /**
   * Records this instance in `group` until `now + ttlMs` (a heartbeat: call again before then) with `info`, and
   * returns the other instances of the group whose heartbeat is still live. Redis only: a SQLite store serves one
   * instance, and has no such method.
   */
  announceInstance?(params: InstanceHeartbeat): Promise<AnnouncedInstance[]>;

  /** Removes this instance from `group` (on a clean stop), so that others stop counting it at once. */
  leaveInstances?(params: { group: string; id: string }): Promise<void>;

  // ── Subnames and CCIP records ────────────────────────────────────────────────────────────

  /** Registers `label.parent`; false if the label is already taken. */
  putSubname(subname: SubnameRecord): Promise<boolean>;

  getSubname(params: { parent: string; label: string }): Promise<SubnameRecord | null>;

  /** Subnames of a parent, oldest first (ties by label). */
  listSubnames(params: { parent: string; limit: number; offset: number }): Promise<SubnameRecord[]>;

  /** Number of subnames under `parent`, or under all parents when omitted. */
  countSubnames(parent?: string): Promise<number>;

  // ── ENS record index ─────────────────────────────────────────────────────────────────────

  /**
   * Adds the keys a name's resolver events set (src/webhooks/detectors/ens-record-index.ts): each key once, in the order
   * first added, at most `limits` per kind; adding again what is held changes nothing.
   */
  addNameRecordKeys(update: NameRecordKeysUpdate): Promise<void>;

  /**
   * Drops the keys a name's resolver events cleared, all at once: each frees its place under the limits, and one
   * added again later comes last; removing what is not held changes nothing.
   */
  removeNameRecordKeys(removal: NameRecordKeysRemoval): Promise<void>;

  /** The indexed keys of each node, in the order asked (none for a node never indexed). */
  nameRecordKeys(nodes: readonly string[]): Promise<NameRecordKeys[]>;

  // ── Lifecycle ────────────────────────────────────────────────────────────────────────────

  describe(): StoreDescription;

  /** Resolves when the backend answers; rejects otherwise. */
  ping(): Promise<void>;

  close(): Promise<void>;
}

/** One instance's heartbeat in a group of instances sharing the store (Store.announceInstance). */
export interface InstanceHeartbeat {
  group: string;
  id: string;
  /** What the others are told about this instance (JSON, secret-free). */
  info: string;
  ttlMs: number;
  now: number;
}

/** Another live instance of the group, as it announced itself. */
export interface AnnouncedInstance {
  id: string;
  info: string;
}
