import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AccessGate, createAccessGate } from '../../src/access/access-gate.js';
import { DEFAULT_MODE_LIMITS } from '../../src/access/caller-limits.js';
import type { Caller } from '../../src/access/identify-caller.js';
import { countOf, requestsPer } from '../../src/access/quota-refusals.js';
import type { ApiError } from '../../src/errors/api-error.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { ApiKeyRecord } from '../../src/store/store.js';

/** Friday 2025-03-14 12:00:00 UTC. */
const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);
const WALLET = `0x${'ab'.repeat(20)}`;

describe('the access gate with an API key (the contract: per key, 10 concurrent, credits past the daily limit)', () => {
  let dir: string;
  let store: SqliteStore;
  let clock: number;
  let key: ApiKeyRecord;
  let gate: AccessGate;
  const request = () => ({ ip: '203.0.113.9', headers: {} });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gate-'));
    store = openSqliteStore({ file: join(dir, 'store.sqlite') });
    clock = T0;
    key = await store.createApiKey({
      id: 'key-1',
      wallet: WALLET,
      name: 'k',
      keyHash: 'h'.repeat(64),
      prefix: 'sk_live_abcd…',
      createdAt: T0,
      dailyLimit: 2,
      minuteLimit: 10,
    });
    const caller: Caller = {
      mode: 'api_key',
      key: 'key:key-1',
      apiKeyId: key.id,
      apiKey: key,
      limits: { daily: 2, perMinute: 10 },
    };
    gate = createAccessGate({
      store,
      identify: async () => caller,
      limits: { modes: DEFAULT_MODE_LIMITS, apiKeyConcurrency: 3 },
      now: () => clock,
    });
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: unknown) => err as ApiError,
    );

  it('at most the concurrency limit of calls are in flight; a finished call frees its slot', async () => {
    await store.addCredits({ keyId: key.id, amount: 100, reference: 'fixture', now: T0 });
    const held = [];
    for (let i = 0; i < 3; i++) {
      held.push(await gate.admit(request(), { tier: 'medium' }));
    }
    const busy = await refusal(gate.admit(request(), { tier: 'medium' }));
    expect(busy).toMatchObject({ status: 429, code: 'RATE_LIMITED', extra: { limit: 3, retryAfter: 1 } });
    expect(busy?.message).toMatch(/in flight/);
    held[0]!.release();
    await new Promise((r) => setTimeout(r, 10));
    await expect(gate.admit(request(), { tier: 'medium' })).resolves.toMatchObject({ caller: { mode: 'api_key' } });
  });

  it('a refused call gives its slot back at once', async () => {
    for (let i = 0; i < 2; i++) (await gate.admit(request(), { tier: 'medium' })).release();
    for (let i = 0; i < 5; i++) {
      clock += 60_000; // a fresh minute each time: the daily limit and the empty balance refuse
      expect(await refusal(gate.admit(request(), { tier: 'medium' }))).toMatchObject({
        status: 402,
        code: 'INSUFFICIENT_CREDITS',
      });
    }
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 3; i++)
      expect(await store.acquireSlot({ key: 'key:key-1', max: 3, ttlMs: 1000, now: clock })).not.toBeNull();
  });

  it('paying with credits is still limited per minute, and a per-minute refusal costs no credit', async () => {
    await store.addCredits({ keyId: key.id, amount: 100, reference: 'fixture', now: T0 });
    for (let i = 0; i < 10; i++) (await gate.admit(request(), { tier: 'medium' })).release();
    const perMinute = await refusal(gate.admit(request(), { tier: 'medium' }));
    expect(perMinute).toMatchObject({ status: 429, code: 'RATE_LIMITED', extra: { limit: 10 } });
    expect(perMinute?.headers['x-ratelimit-tier-remaining']).toBe('0');
    // Two calls within the daily limit, eight paid: 92 credits left; the refused call took none.
    expect(await store.getCredits(key.id)).toBe(92);
  });
});

describe('limit messages', () => {
  it('say a limit of one in the singular: "1 request per day", "30 requests per minute"', () => {
    expect(requestsPer(1, 'day')).toBe('1 request per day');
    expect(requestsPer(30, 'minute')).toBe('30 requests per minute');
    expect([countOf(1, 'second'), countOf(0, 'call'), countOf(2, 'request')]).toEqual([
      '1 second',
      '0 calls',
      '2 requests',
    ]);
  });
});
