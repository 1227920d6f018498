import { type RedisScript, script } from './redis-scripts.js';

/*
 * Lua scripts of the Redis store's webhook part (redis-webhooks.ts); each is one atomic read-modify-write inside one
 * outbox partition (every key of a call carries the partition's hash tag), and every key is passed in KEYS. Webhooks and deliveries are flat JSON rows in two hashes (`events`, `filters` and `payload`
 * are JSON strings inside them), so cjson never re-encodes a caller's nested values.
 */

/** KEYS: [webhooks, wallet's webhooks]. ARGV: [id, row, createdAt, max (-1: none)]. 1 created, 0 at the limit, -1 id taken. */
export const createWebhookScript: RedisScript = script(
  'createWebhook',
  `
if tonumber(ARGV[4]) >= 0 and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return -1 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`,
);

/** KEYS: [webhooks]. ARGV: [id, wallet, changes (JSON), now]. Returns the new row, or nil if not the wallet's. */
export const updateWebhookScript: RedisScript = script(
  'updateWebhook',
  `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local w = cjson.decode(raw)
if w.wallet ~= ARGV[2] then return false end
local c = cjson.decode(ARGV[3])
if c.url then w.url = c.url end
if c.events then w.events = c.events end
if c.filters then w.filters = c.filters end
if c.status then
  if c.status == 'active' and w.status ~= 'active' then
    w.failingSince = cjson.null
    w.disabledReason = cjson.null
  end
  w.status = c.status
end
w.updatedAt = tonumber(ARGV[4])
local out = cjson.encode(w)
redis.call('HSET', KEYS[1], ARGV[1], out)
return out
`,
);

/** KEYS: [webhooks, wallet's webhooks, webhook's deliveries, deliveries, due]. ARGV: [id, wallet]. 1 deleted, else 0. */
export const deleteWebhookScript: RedisScript = script(
  'deleteWebhook',
  `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw or cjson.decode(raw).wallet ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('HDEL', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
end
redis.call('DEL', KEYS[3])
return 1
`,
);

/**
 * KEYS: [events seen, deliveries, due, event counts, then each target's webhook deliveries in order], of one partition.
 * ARGV: [now, month, batch (JSON: {events}: the partition's targets only), forgetBefore]. Returns how many deliveries
 * became pending.
 */
export const recordEventsScript: RedisScript = script(
  'recordEvents',
  `
local now = tonumber(ARGV[1])
local b = cjson.decode(ARGV[3])
local k = 5
local pending = 0
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
for _, e in ipairs(b.events) do
  local fresh = redis.call('ZADD', KEYS[1], 'NX', now, e.id) == 1
  for _, t in ipairs(e.targets) do
    if fresh then
      local status = 'pending'
      local err = cjson.null
      local limit = tonumber(t.monthlyLimit)
      if limit >= 0 then
        local field = t.wallet .. '|' .. ARGV[2]
        if tonumber(redis.call('HGET', KEYS[4], field) or '0') >= limit then
          status = 'dropped'
          err = t.droppedError
        else
          redis.call('HINCRBY', KEYS[4], field, 1)
        end
      end
      local next = cjson.null
      if status == 'pending' then next = now end
      local d = { id = t.deliveryId, webhookId = t.webhookId, wallet = t.wallet, eventId = e.id, eventType = e.type,
        payload = e.payload, status = status, attempts = 0, createdAt = now, nextAttemptAt = next,
        lastAttemptAt = cjson.null, deliveredAt = cjson.null, responseCode = cjson.null, latencyMs = cjson.null,
        error = err, lease = cjson.null, leaseUntil = 0 }
      if redis.call('HSETNX', KEYS[2], t.deliveryId, cjson.encode(d)) == 1 then
        redis.call('ZADD', KEYS[k], now, t.deliveryId)
        if status == 'pending' then
          redis.call('ZADD', KEYS[3], now, t.deliveryId)
          pending = pending + 1
        end
      end
    end
    k = k + 1
  end
end
return pending
`,
);

/**
 * KEYS: [deliveries, due, webhooks]. ARGV: [now, leaseMs, limit, pausedRecheckMs, lease_1 … lease_limit].
 * Returns {row, url, secret} triples of the deliveries leased to the caller.
 */
export const claimDeliveriesScript: RedisScript = script(
  'claimDeliveries',
  `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local out = {}
local n = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit * 4)) do
  if n >= limit then break end
  local raw = redis.call('HGET', KEYS[1], id)
  local d = raw and cjson.decode(raw)
  local wraw = d and redis.call('HGET', KEYS[3], d.webhookId)
  if not wraw or d.status ~= 'pending' then
    redis.call('ZREM', KEYS[2], id)
  else
    local w = cjson.decode(wraw)
    if w.status ~= 'active' then
      redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), id)
    else
      n = n + 1
      d.lease = ARGV[4 + n]
      d.leaseUntil = now + tonumber(ARGV[2])
      local row = cjson.encode(d)
      redis.call('HSET', KEYS[1], id, row)
      redis.call('ZADD', KEYS[2], d.leaseUntil, id)
      out[#out + 1] = row
      out[#out + 1] = w.url
      out[#out + 1] = w.secret
    end
  end
end
return out
`,
);

/**
 * KEYS: [deliveries, due, webhooks, the webhook's deliveries].
 * ARGV: [id, lease, attempt (JSON), retryAt (-1: none), disableAfterMs, now, disabledReason]. 1 recorded, 0 lease lost.
 */
export const finishDeliveryScript: RedisScript = script(
  'finishDelivery',
  `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local d = cjson.decode(raw)
if d.status ~= 'pending' or d.lease ~= ARGV[2] then return 0 end
local a = cjson.decode(ARGV[3])
local now = tonumber(ARGV[6])
local retryAt = tonumber(ARGV[4])
d.attempts = d.attempts + 1
d.lastAttemptAt = now
d.responseCode = a.responseCode
d.latencyMs = a.latencyMs
d.error = a.error
d.lease = cjson.null
d.leaseUntil = 0
if a.ok then
  d.status = 'delivered'
  d.deliveredAt = now
  d.nextAttemptAt = cjson.null
  redis.call('ZREM', KEYS[2], ARGV[1])
elseif retryAt >= 0 then
  d.nextAttemptAt = retryAt
  redis.call('ZADD', KEYS[2], retryAt, ARGV[1])
else
  d.status = 'failed'
  d.nextAttemptAt = cjson.null
  redis.call('ZREM', KEYS[2], ARGV[1])
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(d))
local wraw = redis.call('HGET', KEYS[3], d.webhookId)
if not wraw then return 1 end
local w = cjson.decode(wraw)
if a.ok then
  w.failingSince = cjson.null
else
  if w.failingSince == cjson.null then w.failingSince = now end
  if w.status == 'active' and now - w.failingSince >= tonumber(ARGV[5]) then
    w.status = 'disabled'
    w.disabledReason = ARGV[7]
    w.updatedAt = now
    for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
      local r = redis.call('HGET', KEYS[1], id)
      local o = r and cjson.decode(r)
      if o and o.status == 'pending' then
        o.status = 'failed'
        o.nextAttemptAt = cjson.null
        o.error = 'webhook disabled: ' .. ARGV[7]
        o.lease = cjson.null
        o.leaseUntil = 0
        redis.call('HSET', KEYS[1], id, cjson.encode(o))
        redis.call('ZREM', KEYS[2], id)
      end
    end
  end
end
redis.call('HSET', KEYS[3], d.webhookId, cjson.encode(w))
return 1
`,
);

/** KEYS: [deliveries, due]. ARGV: [id, webhookId, now]. Returns the row made pending, or nil. */
export const redeliverScript: RedisScript = script(
  'redeliver',
  `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local d = cjson.decode(raw)
if d.webhookId ~= ARGV[2] or d.status == 'dropped' then return false end
d.status = 'pending'
d.nextAttemptAt = tonumber(ARGV[3])
d.lease = cjson.null
d.leaseUntil = 0
local row = cjson.encode(d)
redis.call('HSET', KEYS[1], ARGV[1], row)
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return row
`,
);
