import { type RedisScript, script } from './redis-scripts.js';

/**
 * An API key's counted call in one round trip (src/store/redis-store.ts admitKeyCall): the concurrency slot, the quota
 * counters and the key's lastUsedAt, all under the key's hash tag (one Redis Cluster slot).
 * KEYS: [slot set, key hash, counter_1 … counter_n].
 * ARGV: [now, max, slotExpiresAt, token, slotTtlMs, r, released_1 … released_r, limit_1, ttlMs_1, … limit_n, ttlMs_n].
 * First gives back the slots of earlier calls named in `released` and drops expired holders; then takes a slot if one
 * is free (else returns {0}); then, as consumeQuota, increments every counter or none; when it did, sets the key's
 * lastUsedAt (never resurrecting a deleted key). Returns {1, admitted (0|1), count_1 … count_n}; the slot is held
 * either way (the caller gives it back when a refused call ends).
 */
export const admitKeyCallScript: RedisScript = script(
  'admitKeyCall',
  `
local released = tonumber(ARGV[6])
for i = 1, released do redis.call('ZREM', KEYS[1], ARGV[6 + i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return {0} end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
local base = 6 + released
local n = #KEYS - 2
local out = {1, 1}
for i = 1, n do
  out[i + 2] = tonumber(redis.call('GET', KEYS[i + 2]) or '0')
  if out[i + 2] >= tonumber(ARGV[base + 2 * i - 1]) then out[2] = 0 end
end
if out[2] == 0 then return out end
for i = 1, n do
  out[i + 2] = redis.call('INCR', KEYS[i + 2])
  if out[i + 2] == 1 then redis.call('PEXPIRE', KEYS[i + 2], ARGV[base + 2 * i]) end
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'lastUsedAt', ARGV[1]) end
return out
`,
);
