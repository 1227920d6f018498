import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';

/**
 * Lua scripts of the Redis store: each is one atomic read-modify-write.
 * Every key a script touches is passed in KEYS (none is built inside Lua), and the keys of one call carry one hash
 * tag (`{owner}`: a caller's counters, a key's credits, a webhook outbox partition), so on a Redis Cluster each call
 * runs in one slot while the slots spread the load. Nil replies arrive in Lua as `false`.
 */
export interface RedisScript {
  name: string;
  lua: string;
  sha: string;
}

export const script = (name: string, lua: string): RedisScript => ({
  name,
  lua,
  sha: createHash('sha1').update(lua).digest('hex'),
});

/**
 * KEYS: one counter key per counter. ARGV: limit_i, ttlMs_i pairs.
 * Returns {admitted (0|1), count_1 … count_n}; increments all counters or none.
 */
export const consumeQuotaScript = script(
  'consumeQuota',
  `
local n = #KEYS
local out = {1}
for i = 1, n do
  out[i + 1] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if out[i + 1] >= tonumber(ARGV[2 * i - 1]) then out[1] = 0 end
end
if out[1] == 0 then return out end
for i = 1, n do
  out[i + 1] = redis.call('INCR', KEYS[i])
  if out[i + 1] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return out
`,
);

/** KEYS: one counter key per counter. Takes one count back from each counter above 0. */
export const refundQuotaScript = script(
  'refundQuota',
  `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`,
);

/**
 * KEYS: [slot set]. ARGV: [now, max, slotExpiresAt, token, ttlMs].
 * Drops expired holders, then takes a slot if one is free. Returns 1 (taken) or 0.
 */
export const acquireSlotScript = script(
  'acquireSlot',
  `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
return 1
`,
);

/** KEYS: [session hash]. ARGV: [tokenId, expiresAt, ttlMs]. Opens a session with its current token. */
export const openSessionScript = script(
  'openSession',
  `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'expiresAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`,
);

/**
 * KEYS: [session hash]. ARGV: [tokenId, nextTokenId, now, expiresAt, ttlMs].
 * Compare-and-set of the current token of a live session. Returns 1 (refreshed) or 0 (not current, ended, expired).
 */
export const refreshSessionScript = script(
  'refreshSession',
  `
local current = redis.call('HMGET', KEYS[1], 'token', 'expiresAt')
if not current[1] or current[1] ~= ARGV[1] or tonumber(current[2]) <= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'token', ARGV[2], 'expiresAt', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`,
);

/**
 * KEYS: [wallet hash]. ARGV: [address, now]. Keeps firstSeenAt, sets lastSeenAt.
 * Returns the hash as a flat field/value list.
 */
export const touchWalletScript = script(
  'touchWallet',
  `
redis.call('HSETNX', KEYS[1], 'firstSeenAt', ARGV[2])
redis.call('HSET', KEYS[1], 'address', ARGV[1], 'lastSeenAt', ARGV[2])
return redis.call('HGETALL', KEYS[1])
`,
);

/** KEYS: [key hash]. ARGV: [field, value, …]. Returns 1 (created) or 0 (the id exists). */
export const createApiKeyScript = script(
  'createApiKey',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`,
);

/**
 * KEYS: [key hash]. ARGV: [wallet, oldHash, newHash, prefix].
 * Compare-and-swap on the key's current hash. Returns {1, fields…} rotated, {0} not the wallet's key,
 * {-1} the hash changed since it was read (retry).
 */
export const rotateApiKeyScript = script(
  'rotateApiKey',
  `
local current = redis.call('HMGET', KEYS[1], 'wallet', 'keyHash')
if not current[1] or current[1] ~= ARGV[1] then return {0} end
if current[2] ~= ARGV[2] then return {-1} end
redis.call('HSET', KEYS[1], 'keyHash', ARGV[3], 'prefix', ARGV[4])
return {1, redis.call('HGETALL', KEYS[1])}
`,
);

/**
 * KEYS: [key hash, its applied credit references]. ARGV: [wallet, keyHash].
 * Deletes the key with its credits. Returns 1 deleted, 0 not the wallet's key, -1 the hash changed (retry).
 */
export const deleteApiKeyScript = script(
  'deleteApiKey',
  `
local current = redis.call('HMGET', KEYS[1], 'wallet', 'keyHash')
if not current[1] or current[1] ~= ARGV[1] then return 0 end
if current[2] ~= ARGV[2] then return -1 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`,
);

/** KEYS: [string]. ARGV: [value]. Deletes the string only while it still holds `value`; 1 deleted, else 0. */
export const deleteIfHoldsScript = script(
  'deleteIfHolds',
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
);

/** KEYS: [key hash]. ARGV: [now]. Sets lastUsedAt without resurrecting a deleted key. */
export const touchApiKeyScript = script(
  'touchApiKey',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return 0
`,
);

/**
 * KEYS: [reference record]. ARGV: [keyId, amount, now].
 * Claims a payment reference for a key, once ever; returns the id of the key it was first claimed for.
 */
export const claimCreditReferenceScript = script(
  'claimCreditReference',
  `
local owner = redis.call('HGET', KEYS[1], 'keyId')
if owner then return owner end
redis.call('HSET', KEYS[1], 'keyId', ARGV[1], 'amount', ARGV[2], 'createdAt', ARGV[3])
return ARGV[1]
`,
);

/** KEYS: [reference record]. ARGV: [keyId]. Gives back a reference claimed for a key that turned out not to exist. */
export const releaseCreditReferenceScript = script(
  'releaseCreditReference',
  `
if redis.call('HGET', KEYS[1], 'keyId') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`,
);

/**
 * KEYS: [key hash, its applied credit references]. ARGV: [reference, amount].
 * Adds the credits of a reference claimed for this key, once. Returns {1, balance} applied, {0, balance} applied
 * before, {-1, 0} unknown key.
 */
export const applyCreditsScript = script(
  'applyCredits',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then
  return {0, tonumber(redis.call('HGET', KEYS[1], 'credits'))}
end
return {1, redis.call('HINCRBY', KEYS[1], 'credits', ARGV[2])}
`,
);

/**
 * KEYS: [key hash, receipt, counter (optional)]. ARGV: [amount, receipt ttlMs (0: no receipt), counter ttlMs (with the
 * counter)]. Returns {1, balance} debited (the counter moved by one, the receipt written) or {0, balance} too low /
 * unknown key. The receipt holds the amount, so that refundDebit gives back exactly what was taken, once.
 */
export const debitCreditScript = script(
  'debitCredit',
  `
local credits = redis.call('HGET', KEYS[1], 'credits')
if not credits then return {0, 0} end
credits = tonumber(credits)
local amount = tonumber(ARGV[1])
if credits < amount then return {0, credits} end
local balance = redis.call('HINCRBY', KEYS[1], 'credits', -amount)
if tonumber(ARGV[2]) > 0 then redis.call('SET', KEYS[2], amount, 'PX', ARGV[2]) end
if KEYS[3] and redis.call('INCR', KEYS[3]) == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[3]) end
return {1, balance}
`,
);

/**
 * KEYS: [key hash, receipt, counter (optional)]. Gives back the debit whose receipt this is: its amount to the key (if
 * the key still exists), one count from the counter (never below 0), the receipt removed. Returns 1 given back, 0 no
 * receipt (never debited, already given back, or expired).
 */
export const refundDebitScript = script(
  'refundDebit',
  `
local amount = redis.call('GET', KEYS[2])
if not amount then return 0 end
redis.call('DEL', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HINCRBY', KEYS[1], 'credits', amount) end
if KEYS[3] and tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then redis.call('DECR', KEYS[3]) end
return 1
`,
);

/**
 * KEYS: [labels hash, order set] of one parent. ARGV: [label, record JSON, createdAt].
 * Returns 1 registered or 0 label taken.
 */
export const putSubnameScript = script(
  'putSubname',
  `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`,
);

/** KEYS: [secret]. ARGV: [candidate]. Keeps the first value ever written; returns the stored value. */
export const getOrCreateSecretScript = script(
  'getOrCreateSecret',
  `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`,
);

/**
 * KEYS: [a name's record keys hash]. ARGV: [text limit, coin limit, content hash '1'/'0', text count, texts…, coins…].
 * Fields `t:<key>` and `c:<coin type>` hold the order each was first added (`#seq`), `h` the content hash; `#t` and
 * `#c` count the kinds so that neither grows past its limit.
 */
export const addNameRecordKeysScript = script(
  'addNameRecordKeys',
  `
local function add(field, counter, limit)
  if redis.call('HEXISTS', KEYS[1], field) == 1 then return end
  if tonumber(redis.call('HGET', KEYS[1], counter) or '0') >= limit then return end
  redis.call('HINCRBY', KEYS[1], counter, 1)
  redis.call('HSET', KEYS[1], field, redis.call('HINCRBY', KEYS[1], '#seq', 1))
end
local texts = tonumber(ARGV[4])
for i = 5, 4 + texts do add('t:' .. ARGV[i], '#t', tonumber(ARGV[1])) end
for i = 5 + texts, #ARGV do add('c:' .. ARGV[i], '#c', tonumber(ARGV[2])) end
if ARGV[3] == '1' then add('h', '#h', 1) end
return 1
`,
);

/**
 * KEYS: [a name's record keys hash]. ARGV: [content hash '1'/'0', text count, texts…, coins…]. Deletes the fields of
 * addNameRecordKeys's layout and counts each deleted one off its kind's counter, in one step: a removed key frees its
 * place under the limit, and no reader sees a field gone with its counter not yet lowered.
 */
export const removeNameRecordKeysScript = script(
  'removeNameRecordKeys',
  `
local function remove(field, counter)
  if redis.call('HDEL', KEYS[1], field) == 1 then redis.call('HINCRBY', KEYS[1], counter, -1) end
end
local texts = tonumber(ARGV[2])
for i = 3, 2 + texts do remove('t:' .. ARGV[i], '#t') end
for i = 3 + texts, #ARGV do remove('c:' .. ARGV[i], '#c') end
if ARGV[1] == '1' then remove('h', '#h') end
return 1
`,
);

/**
 * How many replicas must hold a write before it is answered (WAIT after it, in the same round trip); without it a
 * write is answered once its master has it, and a failover may lose the last ones (REDIS_WAIT_REPLICAS).
 */
export interface ReplicaWait {
  replicas: number;
  timeoutMs: number;
}

/** A write its master made, not confirmed by enough replicas in time: its outcome is unknown, like a lost reply. */
export class UnreplicatedWriteError extends Error {
  override name = 'UnreplicatedWriteError';
}

/** Sends one command, then WAIT on the same connection (one pipeline, one slot); the command's reply once replicated. */
export async function replicated(
  redis: RedisClient,
  wait: ReplicaWait,
  command: (pipeline: ReturnType<RedisClient['pipeline']>) => void,
): Promise<unknown> {
  const pipeline = redis.pipeline();
  command(pipeline);
  pipeline.wait(wait.replicas, wait.timeoutMs);
  const replies = await pipeline.exec();
  // No reply for one of the two (a pipeline cut off as its connection closed): the write's outcome is unknown.
  if (!replies || replies.length < 2) {
    throw new UnreplicatedWriteError('the write was cut off before its replicas could confirm it');
  }
  const [[err, reply], [waitErr, acknowledged]] = replies as [[Error | null, unknown], [Error | null, unknown]];
  if (err) {
    // A slot that moved (a failover): the pipeline does not follow it, the next command should.
    if (/^(MOVED|ASK) /.test(err.message) && 'refreshSlotsCache' in redis) redis.refreshSlotsCache();
    throw err;
  }
  if (waitErr) throw waitErr;
  if (Number(acknowledged) < wait.replicas) {
    throw new UnreplicatedWriteError(
      `${Number(acknowledged)} of ${wait.replicas} replicas confirmed the write within ${wait.timeoutMs} ms`,
    );
  }
  return reply;
}

/**
 * Runs a script by SHA, loading it on first use (NOSCRIPT) so a restarted or fresh Redis still works; with `wait`,
 * answers only once that many replicas hold its writes.
 */
export async function runScript(
  redis: RedisClient,
  target: RedisScript,
  keys: readonly string[],
  args: readonly (string | number)[],
  wait?: ReplicaWait,
): Promise<unknown> {
  const send = (command: 'evalsha' | 'eval') =>
    wait === undefined
      ? command === 'evalsha'
        ? redis.evalsha(target.sha, keys.length, ...keys, ...args)
        : redis.eval(target.lua, keys.length, ...keys, ...args)
      : replicated(redis, wait, (p) =>
          command === 'evalsha'
            ? p.evalsha(target.sha, keys.length, ...keys, ...args)
            : p.eval(target.lua, keys.length, ...keys, ...args),
        );
  try {
    return await send('evalsha');
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return send('eval');
  }
}
