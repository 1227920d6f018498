import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { describeRedisTarget, type RedisTarget } from '../config/redis-target.js';
import { ForwardedWebhookStore } from './forwarded-webhook-store.js';
import { checkedRemoval, checkedUpdate, type IndexedKey, indexNode, keysOfRows } from './name-record-keys.js';
import { quotaWindow } from './quota-window.js';
import { admitKeyCallScript } from './redis-admission-script.js';
import { connectRedis, type RedisClient } from './redis-client.js';
import { hashPage } from './redis-hash-page.js';
import {
  acquireSlotScript,
  addNameRecordKeysScript,
  applyCreditsScript,
  claimCreditReferenceScript,
  consumeQuotaScript,
  createApiKeyScript,
  debitCreditScript,
  deleteApiKeyScript,
  deleteIfHoldsScript,
  getOrCreateSecretScript,
  openSessionScript,
  putSubnameScript,
  type RedisScript,
  type ReplicaWait,
  refreshSessionScript,
  refundDebitScript,
  refundQuotaScript,
  releaseCreditReferenceScript,
  removeNameRecordKeysScript,
  replicated,
  rotateApiKeyScript,
  runScript,
  touchApiKeyScript,
  touchWalletScript,
  UnreplicatedWriteError,
} from './redis-scripts.js';
import { RedisWebhooks } from './redis-webhooks.js';
import {
  type AnnouncedInstance,
  type ApiKeyRecord,
  apiKeyOwner,
  type CreditDebit,
  type CreditResult,
  DEBIT_RECEIPT_TTL_MS,
  type DebitRefund,
  type DebitResult,
  type InstanceHeartbeat,
  type KeyCallAdmission,
  type KeyCallParams,
  type KeyRotation,
  type NameRecordKeys,
  type NameRecordKeysRemoval,
  type NameRecordKeysUpdate,
  type NewApiKey,
  type NonceRecord,
  type QuotaCounter,
  type QuotaDecision,
  type QuotaReading,
  type SessionRefresh,
  type Store,
  type StoreDescription,
  type StoreDurability,
  type SubnameRecord,
  type WalletRecord,
} from './store.js';
import { assertCount, assertKeyCount, counterOwner, normalizeAddress, oneOwner } from './store-arguments.js';
import { ApiKeyConflictError, ApiKeyNotFoundError, StoreArgumentError } from './store-errors.js';

const INDEXED_FIELD = /^(t|c|h)(?::(.*))?$/s;
const FIELD_KINDS = { t: 'text', c: 'coin', h: 'contenthash' } as const;

/** The keys of a name's record keys hash (its counters left out). */
function indexedKeys(fields: Record<string, string>): IndexedKey[] {
  return Object.entries(fields).flatMap(([field, seq]) => {
    const match = INDEXED_FIELD.exec(field);
    return match ? [{ kind: FIELD_KINDS[match[1] as 't' | 'c' | 'h'], key: match[2] ?? '', seq: Number(seq) }] : [];
  });
}

/** Counters outlive their window by this much, so instances with slightly skewed clocks still share them. */
const QUOTA_GRACE_MS = 5_000;

/** Compare-and-swap retries for rotate/delete racing another rotation of the same key. */
const MAX_CAS_ATTEMPTS = 50;
/** What a compare-and-swap attempt answers when another rotation changed the key first: read it and try again. */
const RACED = Symbol('raced');

/** Redis replies that mean the server cannot serve now (loading, busy script, failover, out of memory), not a bug. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS|OOM|MOVED|ASK)\b/;
/**
 * ioredis's own failures: the connection is closed or not writeable, a command timed out, a cluster without a node
 * for the slot (during a failover), a socket that stopped answering.
 */
const CLIENT_FAILURE =
  /^(Connection is closed|Stream isn't writeable|Command timed out|Reached the max retries|Cluster is (disconnected|disconnecting|ended)|Cluster isn't ready|None of startup nodes is available|Node is disconnected|Too many Cluster redirections|Failed to refresh slots cache|Socket timeout)/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Whether an error from the Redis store is Redis (or the way to it) failing, rather than a bug or a refused argument. */
export function isRedisOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'ReplyError') return TRANSIENT_REPLY.test(err.message);
  // AbortError: a command (or a pipeline's WAIT) cut off by its connection closing, as when a master is killed.
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'AbortError' || err instanceof UnreplicatedWriteError) {
    return true;
  }
  if (CLIENT_FAILURE.test(err.message)) return true;
  return NETWORK_CODES.has((err as NodeJS.ErrnoException).code ?? '');
}

/** The Redis URL as it may be shown: the password removed. */
export function redactRedisUrl(url: string): string {
  return describeRedisTarget({ kind: 'single', url });
}

/** Turns a flat HGETALL-style reply into an object; empty for a missing hash. */
function fieldsOf(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return {};
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = String(reply[i + 1]);
  return fields;
}

function toApiKey(fields: Record<string, string>): ApiKeyRecord | null {
  if (fields.id === undefined) return null;
  return {
    id: fields.id,
    wallet: fields.wallet,
    name: fields.name,
    keyHash: fields.keyHash,
    prefix: fields.prefix,
    createdAt: Number(fields.createdAt),
    lastUsedAt: fields.lastUsedAt ? Number(fields.lastUsedAt) : null,
    dailyLimit: Number(fields.dailyLimit),
    minuteLimit: Number(fields.minuteLimit),
    credits: Number(fields.credits),
  };
}

function toWallet(fields: Record<string, string>): WalletRecord | null {
  if (fields.address === undefined) return null;
  return { address: fields.address, firstSeenAt: Number(fields.firstSeenAt), lastSeenAt: Number(fields.lastSeenAt) };
}

const toSubname = (json: string | null): SubnameRecord | null =>
  json === null ? null : (JSON.parse(json) as SubnameRecord);

/**
 * Connects to Redis (one, or a Redis Cluster) and returns the store shared by several instances. All keys start with
 * `prefix`. Rejects if Redis cannot be reached.
 * @example const store = await openRedisStore({ url: 'redis://127.0.0.1:6379', prefix: 'cia:' })
 */
export async function openRedisStore(params: {
  /** A `redis://` URL (one Redis), or the target (config.redis). */
  url?: string;
  target?: RedisTarget;
  prefix?: string;
  /** Told about connection errors (e.g. to log them); the commands in flight reject either way. */
  onError?: (err: Error) => void;
  /** A command not answered within this rejects (a hung Redis); none by default. */
  commandTimeoutMs?: number;
  /** REDIS_WAIT_REPLICAS: writes are answered once this many replicas hold them; none by default. */
  waitReplicas?: ReplicaWait;
}): Promise<RedisStore> {
  const target: RedisTarget = params.target ?? { kind: 'single', url: params.url! };
  const redis = await connectRedis(target, { onError: params.onError, commandTimeoutMs: params.commandTimeoutMs });
  return new RedisStore(redis, params.prefix ?? 'cia:', describeRedisTarget(target), params.waitReplicas);
}

/** The hash tag that keeps what one script touches in one Redis Cluster slot: everything of one `entity`. */
const tag = (entity: string): string => `{${entity}}`;

/** The shared store (see {@link openRedisStore}); every read-modify-write is one Lua script. */
/**
 * How long a released concurrency slot waits for its key's next admission to carry it (one round trip fewer) before
 * it is sent alone: under load a key's next call comes within it (npm run bench -- cluster counts the round trips).
 */
const RELEASE_FLUSH_MS = 5;

export class RedisStore extends ForwardedWebhookStore implements Store {
  constructor(
    /** The connection (one Redis, or the cluster); for operator checks such as src/store/redis-durability.ts. */
    readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly location: string,
    private readonly wait?: ReplicaWait,
  ) {
    super(new RedisWebhooks(redis, prefix, wait));
  }

  /** What Redis keeps across a restart, as last read (src/store/redis-durability.ts watchRedisDurability sets it). */
  durability: StoreDurability = 'unknown';
  /** Run as the store closes (timers of checks that would otherwise outlive it). */
  private readonly closing: (() => void)[] = [];

  /** Runs `stop` when the store closes. */
  onClose(stop: () => void): void {
    this.closing.push(stop);
  }

  // A key's record, its counters and its applied credit references share the key's tag; a quota counter its owner's;
  // a subname table its parent's. Keys that no script touches together with another carry no tag.
  private readonly keys = {
    quota: (c: QuotaCounter, window: number) =>
      `${this.prefix}quota:${tag(counterOwner(c))}:${c.windowMs}:${window}:${c.key}`,
    // Tagged with the slot key itself: an API key's (`key:<id>`) sits with its counters and record (admitKeyCall).
    slots: (key: string) => `${this.prefix}slots:${tag(key)}`,
    nonce: (nonce: string) => `${this.prefix}nonce:${nonce}`,
    session: (id: string) => `${this.prefix}session:${id}`,
    wallet: (address: string) => `${this.prefix}wallet:${address}`,
    apiKey: (id: string) => `${this.prefix}apikey:${tag(apiKeyOwner(id))}`,
    appliedCredits: (id: string) => `${this.prefix}apikey-credit-refs:${tag(apiKeyOwner(id))}`,
    debitReceipt: (keyId: string, id: string) => `${this.prefix}credit-debit:${tag(apiKeyOwner(keyId))}:${id}`,
    apiKeyHash: (hash: string) => `${this.prefix}apikey-hash:${hash}`,
    walletApiKeys: (wallet: string) => `${this.prefix}wallet-apikeys:${wallet}`,
    creditReference: (reference: string) => `${this.prefix}credit-ref:${reference}`,
    paymentNonce: (key: string) => `${this.prefix}payment-nonce:${key}`,
    subnames: (parent: string) => `${this.prefix}subnames:${tag(parent)}`,
    subnameOrder: (parent: string) => `${this.prefix}subnames-order:${tag(parent)}`,
    subnameParents: () => `${this.prefix}subname-parents`,
    secret: (name: string) => `${this.prefix}secret:${name}`,
    instances: (group: string) => `${this.prefix}instances:${group}`,
    // One hash per name, its own slot on a Cluster.
    nameRecordKeys: (node: string) => `${this.prefix}ens-record-keys:${tag(node)}`,
  };

  private run(target: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return runScript(this.redis, target, keys, args, this.wait);
  }

  async consumeQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaDecision> {
    const windows = params.counters.map((c) => {
      assertCount('limit', c.limit, 0);
      return quotaWindow(c, params.now);
    });
    if (params.counters.length > 0) oneOwner(params.counters);
    const keys = params.counters.map((c, i) => this.keys.quota(c, windows[i].index));
    const args = params.counters.flatMap((c, i) => [c.limit, windows[i].resetsAt - params.now + QUOTA_GRACE_MS]);
    const reply = (await this.run(consumeQuotaScript, keys, args)) as number[];
    return { admitted: reply[0] === 1, counts: reply.slice(1), resetsAt: windows.map((w) => w.resetsAt) };
  }

  async refundQuota(params: { counters: QuotaCounter[]; now: number }): Promise<void> {
    if (params.counters.length === 0) return;
    oneOwner(params.counters);
    const keys = params.counters.map((c) => this.keys.quota(c, quotaWindow(c, params.now).index));
    await this.run(refundQuotaScript, keys, []);
  }

  async readQuota(params: { counters: QuotaCounter[]; now: number }): Promise<QuotaReading> {
    if (params.counters.length === 0) return { counts: [], resetsAt: [] };
    const windows = params.counters.map((c) => quotaWindow(c, params.now));
    // One GET each (pipelined), not MGET: counters of several owners live in several slots.
    const values = await Promise.all(
      params.counters.map((c, i) => this.redis.get(this.keys.quota(c, windows[i].index))),
    );
    return { counts: values.map((v) => Number(v ?? 0)), resetsAt: windows.map((w) => w.resetsAt) };
  }

  async acquireSlot(params: { key: string; max: number; ttlMs: number; now: number }): Promise<string | null> {
    assertCount('max', params.max, 0);
    assertCount('ttlMs', params.ttlMs, 1);
    const token = randomUUID();
    const args = [params.now, params.max, params.now + params.ttlMs, token, params.ttlMs];
    const taken = await this.run(acquireSlotScript, [this.keys.slots(params.key)], args);
    return taken === 1 ? token : null;
  }

  /**
   * Slots given back but not yet removed, by slot key: the next admitKeyCall of that key removes them in its own round
   * trip; whatever is left RELEASE_FLUSH_MS later goes as one ZREM per key (releaseSlot resolves then). A key's own
   * next call is never refused for them (its script removes them before it counts); other instances may see them
   * held that much longer.
   */
  private readonly pendingReleases = new Map<string, { tokens: string[]; done: (() => void)[] }>();
  private releaseFlush: NodeJS.Timeout | undefined;

  releaseSlot(params: { key: string; token: string }): Promise<void> {
    let pending = this.pendingReleases.get(params.key);
    if (!pending) {
      pending = { tokens: [], done: [] };
      this.pendingReleases.set(params.key, pending);
    }
    pending.tokens.push(params.token);
    this.releaseFlush ??= setTimeout(() => this.flushReleases(), RELEASE_FLUSH_MS);
    const waiting = pending;
    return new Promise((resolve) => waiting.done.push(resolve));
  }

  /** Sends the releases no admission took along: one ZREM per slot key (a failed one lets the slots expire). */
  private flushReleases(): void {
    this.releaseFlush = undefined;
    for (const [key, { tokens, done }] of this.pendingReleases) {
      const settle = () => {
        for (const resolve of done) resolve();
      };
      this.redis.zrem(this.keys.slots(key), ...tokens).then(settle, settle);
    }
    this.pendingReleases.clear();
  }

  async admitKeyCall(params: KeyCallParams): Promise<KeyCallAdmission> {
    assertCount('max', params.max, 0);
    assertCount('ttlMs', params.ttlMs, 1);
    const { counters, now } = params;
    const windows = counters.map((c) => {
      assertCount('limit', c.limit, 0);
      return quotaWindow(c, now);
    });
    if (counters.length > 0) oneOwner(counters);
    const owner = apiKeyOwner(params.keyId);
    if (params.slotKey !== owner || counters.some((c) => counterOwner(c) !== owner)) {
      throw new StoreArgumentError(`admitKeyCall: the slot and the counters must be the key's own (${owner})`);
    }
    // Releases of this key's earlier calls ride along (they are done when the script has run).
    const released = this.pendingReleases.get(params.slotKey);
    this.pendingReleases.delete(params.slotKey);
    const token = randomUUID();
    const keys = [
      this.keys.slots(params.slotKey),
      this.keys.apiKey(params.keyId),
      ...counters.map((c, i) => this.keys.quota(c, windows[i]!.index)),
    ];
    const args = [
      now,
      params.max,
      now + params.ttlMs,
      token,
      params.ttlMs,
      released?.tokens.length ?? 0,
      ...(released?.tokens ?? []),
      ...counters.flatMap((c, i) => [c.limit, windows[i]!.resetsAt - now + QUOTA_GRACE_MS]),
    ];
    let reply: number[];
    try {
      reply = (await this.run(admitKeyCallScript, keys, args)) as number[];
    } catch (err) {
      // The releases it carried are sent on their own, as if it had never taken them along.
      for (const [i, releasedToken] of (released?.tokens ?? []).entries()) {
        this.releaseSlot({ key: params.slotKey, token: releasedToken }).then(released!.done[i], released!.done[i]);
      }
      throw err;
    }
    for (const resolve of released?.done ?? []) resolve();
    if (reply[0] !== 1) return { token: null, quota: null };
    const quota = { admitted: reply[1] === 1, counts: reply.slice(2), resetsAt: windows.map((w) => w.resetsAt) };
    return { token, quota };
  }

  async putNonce(nonce: NonceRecord): Promise<void> {
    const ttl = nonce.expiresAt - nonce.issuedAt;
    if (ttl <= 0) return;
    const record: NonceRecord = {
      nonce: nonce.nonce,
      domain: nonce.domain,
      uri: nonce.uri,
      chainId: nonce.chainId,
      issuedAt: nonce.issuedAt,
      expiresAt: nonce.expiresAt,
    };
    await this.redis.set(this.keys.nonce(nonce.nonce), JSON.stringify(record), 'PX', ttl);
  }

  async peekNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null> {
    const json = await this.redis.get(this.keys.nonce(params.nonce));
    if (json === null) return null;
    const record = JSON.parse(json) as NonceRecord;
    return record.expiresAt > params.now ? record : null;
  }

  async consumeNonce(params: { nonce: string; now: number }): Promise<NonceRecord | null> {
    // GETDEL hands the value to exactly one caller; expiry is then judged on the caller's clock.
    const key = this.keys.nonce(params.nonce);
    const json = (
      this.wait ? await replicated(this.redis, this.wait, (p) => p.getdel(key)) : await this.redis.getdel(key)
    ) as string | null;
    if (json === null) return null;
    const record = JSON.parse(json) as NonceRecord;
    return record.expiresAt > params.now ? record : null;
  }

  async openSession(params: { sessionId: string; tokenId: string; expiresAt: number; now: number }): Promise<void> {
    const ttl = params.expiresAt - params.now;
    if (ttl <= 0) return;
    await this.run(openSessionScript, [this.keys.session(params.sessionId)], [params.tokenId, params.expiresAt, ttl]);
  }

  async refreshSession(params: SessionRefresh): Promise<boolean> {
    const ttl = params.expiresAt - params.now;
    if (ttl <= 0) return false;
    const args = [params.tokenId, params.nextTokenId, params.now, params.expiresAt, ttl];
    return (await this.run(refreshSessionScript, [this.keys.session(params.sessionId)], args)) === 1;
  }

  async endSession(params: { sessionId: string; now: number }): Promise<void> {
    await this.redis.del(this.keys.session(params.sessionId));
  }

  async currentSessionToken(params: { sessionId: string; now: number }): Promise<string | null> {
    const [token, expiresAt] = await this.redis.hmget(this.keys.session(params.sessionId), 'token', 'expiresAt');
    return token !== null && Number(expiresAt) > params.now ? token : null;
  }

  async touchWallet(params: { address: string; now: number }): Promise<WalletRecord> {
    const address = normalizeAddress(params.address);
    const reply = await this.run(touchWalletScript, [this.keys.wallet(address)], [address, params.now]);
    return toWallet(fieldsOf(reply))!;
  }

  async getWallet(address: string): Promise<WalletRecord | null> {
    return toWallet(await this.redis.hgetall(this.keys.wallet(normalizeAddress(address))));
  }

  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    // Field by field, so nothing the caller did not mean to store (a plaintext key, say) reaches Redis.
    const record: ApiKeyRecord = {
      id: key.id,
      wallet: normalizeAddress(key.wallet),
      name: key.name,
      keyHash: key.keyHash,
      prefix: key.prefix,
      createdAt: key.createdAt,
      lastUsedAt: null,
      dailyLimit: key.dailyLimit,
      minuteLimit: key.minuteLimit,
      credits: 0,
    };
    const fields = Object.entries(record).flatMap(([field, value]) => [field, value === null ? '' : String(value)]);
    // Three entities in three slots, written in an order whose leftovers after a crash match nothing: the hash index
    // (no record answers it), the wallet's list (listApiKeys skips ids with no record of the wallet's), the record.
    const hashIndex = this.keys.apiKeyHash(key.keyHash);
    if ((await this.redis.set(hashIndex, key.id, 'NX')) !== 'OK') throw new ApiKeyConflictError(key.id);
    const walletKeys = this.keys.walletApiKeys(record.wallet);
    const listed = await this.redis.zadd(walletKeys, 'NX', key.createdAt, key.id);
    if ((await this.run(createApiKeyScript, [this.keys.apiKey(key.id)], fields)) !== 1) {
      await this.run(deleteIfHoldsScript, [hashIndex], [key.id]);
      if (Number(listed) === 1) await this.redis.zrem(walletKeys, key.id);
      throw new ApiKeyConflictError(key.id);
    }
    return record;
  }

  /**
   * Which key id each recently presented hash was: a hash names one key for good (a rotation gives the key a new
   * hash, a deletion ends it), and the record read below is checked against the hash, so a remembered id saves the
   * index lookup without ever answering for a rotated or deleted key.
   */
  private readonly keyIdByHash = new LRUCache<string, string>({ max: 10_000 });

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const remembered = this.keyIdByHash.get(keyHash);
    if (remembered !== undefined) {
      const record = await this.getApiKey(remembered);
      if (record?.keyHash === keyHash) return record;
      this.keyIdByHash.delete(keyHash);
    }
    const id = await this.redis.get(this.keys.apiKeyHash(keyHash));
    if (id === null) return null;
    const record = await this.getApiKey(id);
    // The key may have been rotated or deleted between the two reads.
    if (record?.keyHash !== keyHash) return null;
    this.keyIdByHash.set(keyHash, id);
    return record;
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    return toApiKey(await this.redis.hgetall(this.keys.apiKey(id)));
  }

  async listApiKeys(wallet: string): Promise<ApiKeyRecord[]> {
    const owner = normalizeAddress(wallet);
    const ids = await this.redis.zrange(this.keys.walletApiKeys(owner), 0, -1);
    const records = await Promise.all(ids.map((id) => this.getApiKey(id)));
    return records.filter((r): r is ApiKeyRecord => r !== null && r.wallet === owner);
  }

  async rotateApiKey(params: KeyRotation): Promise<ApiKeyRecord | null> {
    return this.onOwnApiKey('rotateApiKey', params, null, async (current, wallet) => {
      // The new hash is indexed first and the old one dropped last: findApiKeyByHash checks the record's own hash, so
      // the old hash stops matching the moment the record changes, and a new index the record never took is dropped.
      const newIndex = this.keys.apiKeyHash(params.keyHash);
      if ((await this.redis.set(newIndex, params.id, 'NX')) !== 'OK') throw new ApiKeyConflictError(params.id);
      const args = [wallet, current.keyHash, params.keyHash, params.prefix];
      const [code, fields] = (await this.run(rotateApiKeyScript, [this.keys.apiKey(params.id)], args)) as [
        number,
        unknown,
      ];
      if (code !== 1) {
        await this.run(deleteIfHoldsScript, [newIndex], [params.id]);
        return code === 0 ? null : RACED;
      }
      await this.run(deleteIfHoldsScript, [this.keys.apiKeyHash(current.keyHash)], [params.id]);
      return toApiKey(fieldsOf(fields));
    });
  }

  async deleteApiKey(params: { id: string; wallet: string; now: number }): Promise<boolean> {
    return this.onOwnApiKey('deleteApiKey', params, false, async (current, wallet) => {
      const keys = [this.keys.apiKey(params.id), this.keys.appliedCredits(params.id)];
      const code = await this.run(deleteApiKeyScript, keys, [wallet, current.keyHash]);
      if (code === -1) return RACED;
      if (code !== 1) return false;
      await this.run(deleteIfHoldsScript, [this.keys.apiKeyHash(current.keyHash)], [params.id]);
      await this.redis.zrem(this.keys.walletApiKeys(wallet), params.id);
      return true;
    });
  }

  /**
   * Compare-and-swap on one of the wallet's keys: reads the key, then runs `attempt` on it, again while `attempt`
   * answers RACED (a concurrent rotation changed the key's hash in between). `missing` when the wallet holds no key
   * with this id.
   */
  private async onOwnApiKey<T>(
    operation: string,
    params: { id: string; wallet: string },
    missing: T,
    attempt: (current: ApiKeyRecord, wallet: string) => Promise<T | typeof RACED>,
  ): Promise<T> {
    const wallet = normalizeAddress(params.wallet);
    for (let tries = 0; tries < MAX_CAS_ATTEMPTS; tries++) {
      const current = await this.getApiKey(params.id);
      if (!current || current.wallet !== wallet) return missing;
      const settled = await attempt(current, wallet);
      if (settled !== RACED) return settled;
    }
    throw new Error(`${operation}(${params.id}) kept racing concurrent rotations`);
  }

  async touchApiKey(params: { id: string; now: number }): Promise<void> {
    await this.run(touchApiKeyScript, [this.keys.apiKey(params.id)], [params.now]);
  }

  async addCredits(params: { keyId: string; amount: number; reference: string; now: number }): Promise<CreditResult> {
    assertCount('amount', params.amount, 1);
    // The reference (global) and the key (its own slot) are two entities: the reference is claimed for the key first,
    // then applied to it once. A retry after a crash between the two applies it; another key never can.
    const reference = this.keys.creditReference(params.reference);
    const claimedBy = String(
      await this.run(claimCreditReferenceScript, [reference], [params.keyId, params.amount, params.now]),
    );
    if (claimedBy !== params.keyId) {
      if ((await this.redis.exists(this.keys.apiKey(params.keyId))) === 0) throw new ApiKeyNotFoundError(params.keyId);
      return { applied: false, balance: await this.getCredits(params.keyId) };
    }
    const keys = [this.keys.apiKey(params.keyId), this.keys.appliedCredits(params.keyId)];
    const [code, balance] = (await this.run(applyCreditsScript, keys, [params.reference, params.amount])) as [
      number,
      number,
    ];
    if (code === -1) {
      await this.run(releaseCreditReferenceScript, [reference], [params.keyId]);
      throw new ApiKeyNotFoundError(params.keyId);
    }
    return { applied: code === 1, balance };
  }

  async debitCredit(params: CreditDebit): Promise<DebitResult> {
    const amount = params.amount ?? 1;
    assertCount('amount', amount, 1);
    assertKeyCount(params.keyId, params.count);
    const keys = [this.keys.apiKey(params.keyId), this.keys.debitReceipt(params.keyId, params.id ?? '')];
    const args: (string | number)[] = [amount, params.id === undefined ? 0 : DEBIT_RECEIPT_TTL_MS];
    if (params.count) {
      const window = quotaWindow(params.count, params.now);
      keys.push(this.keys.quota(params.count, window.index));
      args.push(window.resetsAt - params.now + QUOTA_GRACE_MS);
    }
    const [ok, balance] = (await this.run(debitCreditScript, keys, args)) as [number, number];
    return { ok: ok === 1, balance };
  }

  async refundDebit(params: DebitRefund): Promise<boolean> {
    assertKeyCount(params.keyId, params.count);
    const keys = [this.keys.apiKey(params.keyId), this.keys.debitReceipt(params.keyId, params.id)];
    if (params.count) keys.push(this.keys.quota(params.count, quotaWindow(params.count, params.now).index));
    return (await this.run(refundDebitScript, keys, [])) === 1;
  }

  async getCredits(keyId: string): Promise<number> {
    return Number((await this.redis.hget(this.keys.apiKey(keyId), 'credits')) ?? 0);
  }

  async markPaymentNonceSpent(params: { key: string; expiresAt: number; now: number }): Promise<boolean> {
    const ttl = params.expiresAt - params.now;
    // An authorization past its validity cannot be settled; refusing it is the safe answer.
    if (ttl <= 0) return false;
    const key = this.keys.paymentNonce(params.key);
    const set = this.wait
      ? await replicated(this.redis, this.wait, (p) => p.set(key, String(params.expiresAt), 'PX', ttl, 'NX'))
      : await this.redis.set(key, String(params.expiresAt), 'PX', ttl, 'NX');
    return set === 'OK';
  }

  async releasePaymentNonce(key: string): Promise<void> {
    await this.redis.del(this.keys.paymentNonce(key));
  }

  async putSubname(subname: SubnameRecord): Promise<boolean> {
    const record: SubnameRecord = {
      parent: subname.parent,
      label: subname.label,
      owner: normalizeAddress(subname.owner),
      records: subname.records,
      createdAt: subname.createdAt,
    };
    // The parent is listed first (idempotent): the total counts the subnames of every listed parent.
    await this.redis.sadd(this.keys.subnameParents(), record.parent);
    const keys = [this.keys.subnames(record.parent), this.keys.subnameOrder(record.parent)];
    const added = await this.run(putSubnameScript, keys, [record.label, JSON.stringify(record), record.createdAt]);
    return added === 1;
  }

  async getSubname(params: { parent: string; label: string }): Promise<SubnameRecord | null> {
    return toSubname(await this.redis.hget(this.keys.subnames(params.parent), params.label));
  }

  async listSubnames(params: { parent: string; limit: number; offset: number }): Promise<SubnameRecord[]> {
    const { parent } = params;
    const order = this.keys.subnameOrder(parent);
    return hashPage(this.redis, { order, rows: this.keys.subnames(parent), direction: 'ascending' }, params, toSubname);
  }

  async countSubnames(parent?: string): Promise<number> {
    if (parent !== undefined) return this.redis.hlen(this.keys.subnames(parent));
    const parents = await this.redis.smembers(this.keys.subnameParents());
    const counts = await Promise.all(parents.map((p) => this.redis.hlen(this.keys.subnames(p))));
    return counts.reduce((a, b) => a + b, 0);
  }

  async getOrCreateSecret(name: string, create: () => string): Promise<string> {
    const found = await this.redis.get(this.keys.secret(name));
    if (found !== null) return found;
    return String(await this.run(getOrCreateSecretScript, [this.keys.secret(name)], [create()]));
  }

  async addNameRecordKeys(raw: NameRecordKeysUpdate): Promise<void> {
    const update = checkedUpdate(raw);
    const args = [
      update.limits.texts,
      update.limits.coinTypes,
      update.contenthash ? '1' : '0',
      update.texts.length,
      ...update.texts,
      ...update.coinTypes.map(String),
    ];
    await this.run(addNameRecordKeysScript, [this.keys.nameRecordKeys(update.node)], args);
  }

  async removeNameRecordKeys(raw: NameRecordKeysRemoval): Promise<void> {
    const removal = checkedRemoval(raw);
    const args = [
      removal.contenthash ? '1' : '0',
      removal.texts.length,
      ...removal.texts,
      ...removal.coinTypes.map(String),
    ];
    await this.run(removeNameRecordKeysScript, [this.keys.nameRecordKeys(removal.node)], args);
  }

  async nameRecordKeys(nodes: readonly string[]): Promise<NameRecordKeys[]> {
    const hashes = await Promise.all(
      nodes.map((node) => this.redis.hgetall(this.keys.nameRecordKeys(indexNode(node)))),
    );
    return hashes.map((fields) => keysOfRows(indexedKeys(fields)));
  }

  describe(): StoreDescription {
    return { kind: 'redis', location: this.location, durability: this.durability };
  }

  async announceInstance(p: InstanceHeartbeat): Promise<AnnouncedInstance[]> {
    assertCount('ttlMs', p.ttlMs, 1);
    const key = this.keys.instances(p.group);
    // One hash per group, a field per instance with its own expiry; the hash itself outlives the last heartbeat.
    const replies = await this.redis
      .multi()
      .hset(key, p.id, JSON.stringify({ info: p.info, expiresAt: p.now + p.ttlMs }))
      .pexpire(key, p.ttlMs * 2)
      .hgetall(key)
      .exec();
    const all = (replies?.[2]?.[1] ?? {}) as Record<string, string>;
    const others: AnnouncedInstance[] = [];
    const expired: string[] = [];
    for (const [id, json] of Object.entries(all)) {
      const entry = JSON.parse(json) as { info: string; expiresAt: number };
      if (entry.expiresAt <= p.now) expired.push(id);
      else if (id !== p.id) others.push({ id, info: entry.info });
    }
    if (expired.length > 0) await this.redis.hdel(key, ...expired);
    return others;
  }

  async leaveInstances(p: { group: string; id: string }): Promise<void> {
    await this.redis.hdel(this.keys.instances(p.group), p.id);
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    for (const stop of this.closing.splice(0)) stop();
    if (this.redis.status === 'end') return;
    // Slots given back and still waiting to ride along go now, before the connection ends.
    if (this.releaseFlush) {
      clearTimeout(this.releaseFlush);
      this.flushReleases();
    }
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
