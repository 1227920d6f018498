import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKeyOwner,
  type NewApiKey,
  type QuotaCounter,
  type Store,
  type SubnameRecord,
} from '../../src/store/store.js';
import { ApiKeyConflictError, ApiKeyNotFoundError } from '../../src/store/store-errors.js';
import { describeWebhookContract } from './webhook-contract.js';

/** One or more store instances over the same data, and how to throw them away. */
export interface StoreFixture {
  /** Concurrent tests spread their calls across these (e.g. two Redis connections with one prefix). */
  stores: Store[];
  dispose(): Promise<void>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A fixed, realistic clock: Friday 2025-03-14 12:00:00 UTC. */
const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);

const WALLET_A = `0x${'aA'.repeat(20)}`;
const WALLET_B = `0x${'bB'.repeat(20)}`;

const randomHash = (): string => randomBytes(32).toString('hex');

const newKey = (overrides: Partial<NewApiKey> = {}): NewApiKey => ({
  id: randomUUID(),
  wallet: WALLET_A,
  name: 'server',
  keyHash: randomHash(),
  prefix: 'sk_live_ab12…',
  createdAt: T0,
  dailyLimit: 250,
  minuteLimit: 60,
  ...overrides,
});

const subname = (overrides: Partial<SubnameRecord> = {}): SubnameRecord => ({
  parent: 'example.eth',
  label: 'alice',
  owner: WALLET_A,
  records: { addresses: { '60': WALLET_A }, texts: { 'com.twitter': 'alice' }, contenthash: '0xe301' },
  createdAt: T0,
  ...overrides,
});

/** Runs `count` calls at once, spreading them round-robin across the instances. */
/** The counter of the credits a key spent today, as the access gate moves it with each debit. */
const creditsUsed = (keyId: string): QuotaCounter => ({
  key: `credits-used:${keyId}`,
  limit: Number.MAX_SAFE_INTEGER,
  windowMs: DAY,
  owner: apiKeyOwner(keyId),
});

function spread<T>(stores: Store[], count: number, call: (store: Store, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(stores[i % stores.length], i)));
}

/**
 * The behaviour every Store implementation must show; each test gets fresh, empty stores.
 * @example describeStoreContract('sqlite', async () => ({ stores: [store], dispose: () => store.close() }))
 */
export function describeStoreContract(name: string, makeStores: () => Promise<StoreFixture>): void {
  describe(`${name} store contract`, () => {
    let fixture: StoreFixture;
    let store: Store;
    let stores: Store[];

    beforeEach(async () => {
      fixture = await makeStores();
      stores = fixture.stores;
      store = stores[0];
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    describe('rate limiting', () => {
      const owner = 'ip:203.0.113.7';
      const perMinute: QuotaCounter = { key: 'ip:203.0.113.7:minute', limit: 3, windowMs: MINUTE, owner };
      const perDay: QuotaCounter = { key: 'ip:203.0.113.7:day', limit: 5, windowMs: DAY, owner };

      it('a call is admitted and counted on every counter while all are below their limits', async () => {
        const decision = await store.consumeQuota({ counters: [perMinute, perDay], now: T0 });
        expect(decision).toEqual({
          admitted: true,
          counts: [1, 1],
          resetsAt: [T0 + MINUTE, Date.UTC(2025, 2, 15)],
        });
      });

      it('a call past any limit is refused and no counter moves', async () => {
        for (let i = 0; i < 3; i++)
          expect((await store.consumeQuota({ counters: [perMinute, perDay], now: T0 })).admitted).toBe(true);
        const refused = await store.consumeQuota({ counters: [perDay, perMinute], now: T0 + 1 });
        expect(refused).toMatchObject({ admitted: false, counts: [3, 3] });
        expect((await store.readQuota({ counters: [perMinute, perDay], now: T0 + 2 })).counts).toEqual([3, 3]);
      });

      it('a refund takes one count back from each counter of the window, never below 0', async () => {
        for (let i = 0; i < 3; i++) await store.consumeQuota({ counters: [perMinute, perDay], now: T0 });
        await store.refundQuota({ counters: [perMinute, perDay], now: T0 + 1 });
        expect((await store.readQuota({ counters: [perMinute, perDay], now: T0 + 2 })).counts).toEqual([2, 2]);
        expect((await store.consumeQuota({ counters: [perMinute], now: T0 + 3 })).counts).toEqual([3]);
        const other: QuotaCounter = { key: 'ip:198.51.100.9:minute', limit: 3, windowMs: MINUTE };
        await store.refundQuota({ counters: [other], now: T0 });
        expect((await store.readQuota({ counters: [other], now: T0 })).counts).toEqual([0]);
      });

      it('a per-minute counter starts again in the next minute', async () => {
        for (let i = 0; i < 3; i++) await store.consumeQuota({ counters: [perMinute], now: T0 + 59_999 });
        expect((await store.consumeQuota({ counters: [perMinute], now: T0 + 59_999 })).admitted).toBe(false);
        const next = await store.consumeQuota({ counters: [perMinute], now: T0 + MINUTE });
        expect(next).toEqual({ admitted: true, counts: [1], resetsAt: [T0 + 2 * MINUTE] });
      });

      it('a daily counter resets at midnight UTC', async () => {
        const justBeforeMidnight = Date.UTC(2025, 2, 14, 23, 59, 59, 999);
        for (let i = 0; i < 5; i++) await store.consumeQuota({ counters: [perDay], now: justBeforeMidnight });
        const refused = await store.consumeQuota({ counters: [perDay], now: justBeforeMidnight });
        expect(refused).toEqual({ admitted: false, counts: [5], resetsAt: [Date.UTC(2025, 2, 15)] });
        const admitted = await store.consumeQuota({ counters: [perDay], now: Date.UTC(2025, 2, 15) });
        expect(admitted).toEqual({ admitted: true, counts: [1], resetsAt: [Date.UTC(2025, 2, 16)] });
      });

      it('reading a quota does not consume it', async () => {
        await store.consumeQuota({ counters: [perMinute], now: T0 });
        const reading = await store.readQuota({ counters: [perMinute, perDay], now: T0 });
        expect(reading).toEqual({ counts: [1, 0], resetsAt: [T0 + MINUTE, Date.UTC(2025, 2, 15)] });
        expect((await store.readQuota({ counters: [perMinute], now: T0 })).counts).toEqual([1]);
      });

      it('counters with the same key but different windows are separate', async () => {
        await store.consumeQuota({ counters: [{ key: 'k', limit: 10, windowMs: MINUTE }], now: T0 });
        expect((await store.readQuota({ counters: [{ key: 'k', limit: 10, windowMs: DAY }], now: T0 })).counts).toEqual(
          [0],
        );
      });

      it('500 concurrent calls against a limit of 100 admit exactly 100', async () => {
        const counter: QuotaCounter = { key: 'wallet:0xabc:medium:day', limit: 100, windowMs: DAY };
        const decisions = await spread(stores, 500, (s) => s.consumeQuota({ counters: [counter], now: T0 }));
        expect(decisions.filter((d) => d.admitted)).toHaveLength(100);
        expect((await store.readQuota({ counters: [counter], now: T0 })).counts).toEqual([100]);
      });

      it('a durable counter counts like any other', async () => {
        const counter: QuotaCounter = { key: 'key:1:day', limit: 2, windowMs: DAY, durable: true };
        expect((await store.consumeQuota({ counters: [counter], now: T0 })).counts).toEqual([1]);
        expect((await store.consumeQuota({ counters: [counter], now: T0 })).admitted).toBe(true);
        expect((await stores.at(-1)!.consumeQuota({ counters: [counter], now: T0 })).admitted).toBe(false);
      });

      it('concurrent calls on two counters never pass either limit', async () => {
        const tight: QuotaCounter = { key: 'key:1:minute', limit: 60, windowMs: MINUTE, owner: 'key:1' };
        const loose: QuotaCounter = { key: 'key:1:day', limit: 250, windowMs: DAY, owner: 'key:1' };
        const decisions = await spread(stores, 300, (s) => s.consumeQuota({ counters: [loose, tight], now: T0 }));
        expect(decisions.filter((d) => d.admitted)).toHaveLength(60);
        expect((await store.readQuota({ counters: [loose, tight], now: T0 })).counts).toEqual([60, 60]);
      });

      it('counters moved together share one owner; counters of several owners are read together', async () => {
        const other: QuotaCounter = { key: 'ip:198.51.100.9:minute', limit: 3, windowMs: MINUTE };
        await expect(store.consumeQuota({ counters: [perMinute, other], now: T0 })).rejects.toThrow(/one owner/);
        await expect(store.refundQuota({ counters: [perMinute, other], now: T0 })).rejects.toThrow(/one owner/);
        await store.consumeQuota({ counters: [other], now: T0 });
        expect((await store.readQuota({ counters: [perMinute, other], now: T0 })).counts).toEqual([0, 1]);
      });
    });

    describe('concurrency slots', () => {
      it('at most max requests hold a slot at once, and a released slot can be taken again', async () => {
        const tokens = [];
        for (let i = 0; i < 10; i++)
          tokens.push(await store.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now: T0 }));
        expect(tokens.every((t) => typeof t === 'string')).toBe(true);
        expect(new Set(tokens).size).toBe(10);
        expect(await store.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now: T0 })).toBeNull();
        expect(await store.acquireSlot({ key: 'key:2', max: 10, ttlMs: 30_000, now: T0 })).not.toBeNull();
        await store.releaseSlot({ key: 'key:1', token: tokens[0]! });
        expect(await store.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now: T0 })).not.toBeNull();
      });

      it('a slot that is never released frees itself when its ttl ends', async () => {
        expect(await store.acquireSlot({ key: 'key:1', max: 1, ttlMs: 30_000, now: T0 })).not.toBeNull();
        expect(await store.acquireSlot({ key: 'key:1', max: 1, ttlMs: 30_000, now: T0 + 29_999 })).toBeNull();
        expect(await store.acquireSlot({ key: 'key:1', max: 1, ttlMs: 30_000, now: T0 + 30_000 })).not.toBeNull();
      });

      it('releasing an unknown token does nothing', async () => {
        const token = await store.acquireSlot({ key: 'key:1', max: 1, ttlMs: 30_000, now: T0 });
        await store.releaseSlot({ key: 'key:1', token: 'not-a-token' });
        expect(await store.acquireSlot({ key: 'key:1', max: 1, ttlMs: 30_000, now: T0 })).toBeNull();
        await store.releaseSlot({ key: 'key:1', token: token! });
        await store.releaseSlot({ key: 'key:1', token: token! });
      });

      it('of 100 concurrent requests exactly 10 get a slot', async () => {
        const tokens = await spread(stores, 100, (s) =>
          s.acquireSlot({ key: 'key:1', max: 10, ttlMs: 30_000, now: T0 }),
        );
        expect(tokens.filter((t) => t !== null)).toHaveLength(10);
      });
    });

    describe("an API key's counted call in one step (admitKeyCall)", () => {
      const callOf = (keyId: string, max = 2) => {
        const owner = apiKeyOwner(keyId);
        const counters: QuotaCounter[] = [
          { key: `q:${owner}:day`, limit: 3, windowMs: DAY, durable: true, owner },
          { key: `q:${owner}:min`, limit: 5, windowMs: MINUTE, durable: true, owner },
        ];
        return { keyId, slotKey: owner, max, ttlMs: 30_000, counters, now: T0 };
      };

      it('takes a slot, counts the call on every counter and stamps lastUsedAt', async () => {
        const key = await store.createApiKey(newKey());
        const call = callOf(key.id);
        const admitted = await store.admitKeyCall(call);
        expect(typeof admitted.token).toBe('string');
        expect(admitted.quota).toMatchObject({ admitted: true, counts: [1, 1] });
        expect((await store.readQuota({ counters: call.counters, now: T0 })).counts).toEqual([1, 1]);
        expect((await store.getApiKey(key.id))?.lastUsedAt).toBe(T0);
      });

      it('with every slot taken counts nothing; a released slot is taken again', async () => {
        const key = await store.createApiKey(newKey());
        const call = callOf(key.id);
        const first = await store.admitKeyCall(call);
        await store.admitKeyCall(call);
        expect(await store.admitKeyCall(call)).toEqual({ token: null, quota: null });
        expect((await store.readQuota({ counters: call.counters, now: T0 })).counts).toEqual([2, 2]);
        await store.releaseSlot({ key: call.slotKey, token: first.token! });
        expect((await store.admitKeyCall(call)).quota).toMatchObject({ admitted: true, counts: [3, 3] });
      });

      it('a slot released just before the next call of the key is free for it, with or without awaiting the release', async () => {
        const key = await store.createApiKey(newKey());
        const call = callOf(key.id, 1);
        const first = await store.admitKeyCall(call);
        const releasing = store.releaseSlot({ key: call.slotKey, token: first.token! });
        const second = await store.admitKeyCall(call);
        await releasing;
        expect(typeof second.token).toBe('string');
        expect(await store.admitKeyCall(call)).toEqual({ token: null, quota: null });
      });

      it('a call past a limit holds its slot but moves no counter, and leaves lastUsedAt alone', async () => {
        const key = await store.createApiKey(newKey());
        const call = { ...callOf(key.id, 10) };
        for (let i = 0; i < 3; i++) await store.admitKeyCall(call);
        const refused = await store.admitKeyCall({ ...call, now: T0 + 1 });
        expect(typeof refused.token).toBe('string');
        expect(refused.quota).toMatchObject({ admitted: false, counts: [3, 3] });
        expect((await store.getApiKey(key.id))?.lastUsedAt).toBe(T0);
      });

      it('does not bring a deleted key back to life by stamping it', async () => {
        const key = await store.createApiKey(newKey());
        await store.deleteApiKey({ id: key.id, wallet: WALLET_A, now: T0 });
        await store.admitKeyCall(callOf(key.id));
        expect(await store.getApiKey(key.id)).toBeNull();
      });

      it('of 100 concurrent calls of one key with 10 slots, exactly 10 get one and are counted', async () => {
        const key = await store.createApiKey(newKey());
        const call = { ...callOf(key.id, 10) };
        call.counters = call.counters.map((c) => ({ ...c, limit: 1_000 }));
        const results = await spread(stores, 100, (s) => s.admitKeyCall(call));
        expect(results.filter((r) => r.token !== null)).toHaveLength(10);
        expect((await store.readQuota({ counters: call.counters, now: T0 })).counts).toEqual([10, 10]);
      });
    });

    describe('SIWE nonces', () => {
      const challenge = {
        nonce: 'n0nce1234567',
        domain: 'api.example.com',
        uri: 'https://api.example.com',
        chainId: 1,
        issuedAt: T0,
        expiresAt: T0 + 5 * MINUTE,
      };

      it('a nonce can be used once', async () => {
        await store.putNonce(challenge);
        expect(await store.consumeNonce({ nonce: challenge.nonce, now: T0 + 1000 })).toEqual(challenge);
        expect(await store.consumeNonce({ nonce: challenge.nonce, now: T0 + 2000 })).toBeNull();
      });

      it('an expired nonce is refused', async () => {
        await store.putNonce(challenge);
        expect(await store.consumeNonce({ nonce: challenge.nonce, now: T0 + 5 * MINUTE })).toBeNull();
      });

      it('an unknown nonce is refused', async () => {
        expect(await store.consumeNonce({ nonce: 'never-issued', now: T0 })).toBeNull();
      });

      it('a nonce can be read without using it up, until it is used or expires', async () => {
        await store.putNonce(challenge);
        const [first, second] = stores.length > 1 ? stores : [store, store];
        expect(await first!.peekNonce({ nonce: challenge.nonce, now: T0 + 1000 })).toEqual(challenge);
        expect(await second!.peekNonce({ nonce: challenge.nonce, now: T0 + 1000 })).toEqual(challenge);
        expect(await store.peekNonce({ nonce: challenge.nonce, now: T0 + 5 * MINUTE })).toBeNull();
        expect(await store.peekNonce({ nonce: 'never-issued', now: T0 })).toBeNull();
        expect(await store.consumeNonce({ nonce: challenge.nonce, now: T0 + 2000 })).toEqual(challenge);
        expect(await store.peekNonce({ nonce: challenge.nonce, now: T0 + 2000 })).toBeNull();
      });

      it('of 50 concurrent uses of a nonce exactly one succeeds', async () => {
        await store.putNonce(challenge);
        const results = await spread(stores, 50, (s) => s.consumeNonce({ nonce: challenge.nonce, now: T0 + 1000 }));
        expect(results.filter((r) => r !== null)).toEqual([challenge]);
      });
    });

    describe('sessions', () => {
      const open = (s: Store = store) =>
        s.openSession({ sessionId: 'session-1', tokenId: 'token-0', expiresAt: T0 + DAY, now: T0 });
      const refresh = (s: Store, tokenId: string, nextTokenId: string, now = T0 + MINUTE) =>
        s.refreshSession({ sessionId: 'session-1', tokenId, nextTokenId, expiresAt: now + DAY, now });

      it('an open session has its current token until it expires; an unknown session has none', async () => {
        await open();
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + 1 })).toBe('token-0');
        expect(await stores.at(-1)!.currentSessionToken({ sessionId: 'session-1', now: T0 + DAY - 1 })).toBe('token-0');
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + DAY })).toBeNull();
        expect(await store.currentSessionToken({ sessionId: 'session-2', now: T0 + 1 })).toBeNull();
      });

      it('a refresh makes the next token current and the session live a day longer; the old token is refreshed once', async () => {
        await open();
        expect(await refresh(store, 'token-0', 'token-1')).toBe(true);
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + DAY + 1 })).toBe('token-1');
        expect(await refresh(stores.at(-1)!, 'token-0', 'token-x')).toBe(false);
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + MINUTE })).toBe('token-1');
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + MINUTE + DAY })).toBeNull();
      });

      it('an expired, ended or unknown session cannot be refreshed', async () => {
        await open();
        expect(await refresh(store, 'token-0', 'token-1', T0 + DAY)).toBe(false);
        expect(await refresh(store, 'token-0', 'token-1', T0 + DAY - 1)).toBe(true);
        await store.endSession({ sessionId: 'session-1', now: T0 + DAY });
        expect(await refresh(store, 'token-1', 'token-2', T0 + DAY + 1)).toBe(false);
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + DAY + 1 })).toBeNull();
        expect(
          await store.refreshSession({
            sessionId: 'never-opened',
            tokenId: 'a',
            nextTokenId: 'b',
            expiresAt: T0 + DAY,
            now: T0,
          }),
        ).toBe(false);
      });

      it('of 20 concurrent refreshes of one token exactly one succeeds, and its token is the current one', async () => {
        await open();
        const results = await spread(stores, 20, (s, i) => refresh(s, 'token-0', `token-${i + 1}`));
        const winners = results.flatMap((ok, i) => (ok ? [`token-${i + 1}`] : []));
        expect(winners).toHaveLength(1);
        expect(await store.currentSessionToken({ sessionId: 'session-1', now: T0 + MINUTE })).toBe(winners[0]);
      });

      it('ending a session while it is refreshed leaves no current token', async () => {
        for (let trial = 0; trial < 10; trial++) {
          const sessionId = `session-race-${trial}`;
          await store.openSession({ sessionId, tokenId: 't0', expiresAt: T0 + DAY, now: T0 });
          await Promise.all([
            ...Array.from({ length: 10 }, (_, i) =>
              stores[i % stores.length]!.refreshSession({
                sessionId,
                tokenId: 't0',
                nextTokenId: `t${i + 1}`,
                expiresAt: T0 + 2 * DAY,
                now: T0 + 1,
              }),
            ),
            stores.at(-1)!.endSession({ sessionId, now: T0 + 1 }),
          ]);
          expect(await store.currentSessionToken({ sessionId, now: T0 + 2 })).toBeNull();
        }
      });
    });

    describe('wallets', () => {
      it('a wallet keeps its first-seen time and updates its last-seen time, whatever the address case', async () => {
        expect(await store.getWallet(WALLET_A)).toBeNull();
        const first = await store.touchWallet({ address: WALLET_A, now: T0 });
        expect(first).toEqual({ address: WALLET_A.toLowerCase(), firstSeenAt: T0, lastSeenAt: T0 });
        await store.touchWallet({ address: WALLET_A.toUpperCase().replace('0X', '0x'), now: T0 + DAY });
        expect(await store.getWallet(WALLET_A)).toEqual({
          address: WALLET_A.toLowerCase(),
          firstSeenAt: T0,
          lastSeenAt: T0 + DAY,
        });
      });
    });

    describe('API keys', () => {
      it('a new key starts with 0 credits and is found by its hash only', async () => {
        const key = newKey();
        const created = await store.createApiKey(key);
        expect(created).toEqual({ ...key, wallet: WALLET_A.toLowerCase(), lastUsedAt: null, credits: 0 });
        expect(await store.findApiKeyByHash(key.keyHash)).toEqual(created);
        expect(await store.getApiKey(key.id)).toEqual(created);
        expect(await store.findApiKeyByHash(randomHash())).toBeNull();
      });

      it('a key id or hash cannot be taken twice', async () => {
        const key = await store.createApiKey(newKey());
        await expect(store.createApiKey(newKey({ id: key.id }))).rejects.toBeInstanceOf(ApiKeyConflictError);
        await expect(store.createApiKey(newKey({ keyHash: key.keyHash }))).rejects.toBeInstanceOf(ApiKeyConflictError);
        expect(await store.listApiKeys(WALLET_A)).toHaveLength(1);
      });

      it("a wallet's keys are listed oldest first, and only its own", async () => {
        const second = await store.createApiKey(newKey({ name: 'second', createdAt: T0 + 2 }));
        const first = await store.createApiKey(newKey({ name: 'first', createdAt: T0 + 1 }));
        await store.createApiKey(newKey({ wallet: WALLET_B }));
        expect((await store.listApiKeys(WALLET_A.toUpperCase().replace('0X', '0x'))).map((k) => k.id)).toEqual([
          first.id,
          second.id,
        ]);
        expect(await store.listApiKeys(`0x${'cc'.repeat(20)}`)).toEqual([]);
      });

      it('a rotated key keeps its id and credits', async () => {
        const key = await store.createApiKey(newKey());
        await store.addCredits({ keyId: key.id, amount: 100, reference: randomUUID(), now: T0 });
        const newHash = randomHash();
        const rotated = await store.rotateApiKey({
          id: key.id,
          wallet: WALLET_A,
          keyHash: newHash,
          prefix: 'sk_live_cd34…',
          now: T0 + 1,
        });
        expect(rotated).toEqual({ ...key, keyHash: newHash, prefix: 'sk_live_cd34…', credits: 100 });
        expect(await store.findApiKeyByHash(newHash)).toEqual(rotated);
      });

      it("a rotated key's old hash no longer matches", async () => {
        const key = await store.createApiKey(newKey());
        await store.rotateApiKey({ id: key.id, wallet: WALLET_A, keyHash: randomHash(), prefix: 'p…', now: T0 + 1 });
        for (const s of stores) expect(await s.findApiKeyByHash(key.keyHash)).toBeNull();
      });

      it('only the owning wallet can rotate or delete a key', async () => {
        const key = await store.createApiKey(newKey());
        expect(
          await store.rotateApiKey({ id: key.id, wallet: WALLET_B, keyHash: randomHash(), prefix: 'p…', now: T0 }),
        ).toBeNull();
        expect(await store.deleteApiKey({ id: key.id, wallet: WALLET_B, now: T0 })).toBe(false);
        expect(
          await store.rotateApiKey({
            id: 'no-such-key',
            wallet: WALLET_A,
            keyHash: randomHash(),
            prefix: 'p…',
            now: T0,
          }),
        ).toBeNull();
        expect(await store.deleteApiKey({ id: 'no-such-key', wallet: WALLET_A, now: T0 })).toBe(false);
        expect(await store.findApiKeyByHash(key.keyHash)).toEqual(key);
      });

      it('rotating to a hash that is already in use fails', async () => {
        const a = await store.createApiKey(newKey());
        const b = await store.createApiKey(newKey());
        await expect(
          store.rotateApiKey({ id: a.id, wallet: WALLET_A, keyHash: b.keyHash, prefix: 'p…', now: T0 }),
        ).rejects.toBeInstanceOf(ApiKeyConflictError);
        expect(await store.findApiKeyByHash(a.keyHash)).toEqual(a);
      });

      it('of concurrent rotations of one key, exactly one new hash matches', async () => {
        const key = await store.createApiKey(newKey());
        const hashes = Array.from({ length: 10 }, randomHash);
        const rotated = await spread(stores, 10, (s, i) =>
          s.rotateApiKey({ id: key.id, wallet: WALLET_A, keyHash: hashes[i], prefix: 'p…', now: T0 }),
        );
        expect(rotated.every((r) => r !== null)).toBe(true);
        const matching = (await Promise.all(hashes.map((h) => store.findApiKeyByHash(h)))).filter((r) => r !== null);
        expect(matching).toHaveLength(1);
        expect(await store.findApiKeyByHash(key.keyHash)).toBeNull();
      });

      it('deleting a key destroys its credits', async () => {
        const key = await store.createApiKey(newKey());
        await store.addCredits({ keyId: key.id, amount: 250, reference: randomUUID(), now: T0 });
        expect(await store.deleteApiKey({ id: key.id, wallet: WALLET_A, now: T0 + 1 })).toBe(true);
        expect(await store.getCredits(key.id)).toBe(0);
        expect(await store.debitCredit({ keyId: key.id, now: T0 + 2 })).toEqual({ ok: false, balance: 0 });
        expect(await store.findApiKeyByHash(key.keyHash)).toBeNull();
        expect(await store.getApiKey(key.id)).toBeNull();
        expect(await store.listApiKeys(WALLET_A)).toEqual([]);
        expect(await store.deleteApiKey({ id: key.id, wallet: WALLET_A, now: T0 + 3 })).toBe(false);
      });

      it('using a key records when it was last used, and never revives a deleted key', async () => {
        const key = await store.createApiKey(newKey());
        await store.touchApiKey({ id: key.id, now: T0 + MINUTE });
        expect((await store.getApiKey(key.id))?.lastUsedAt).toBe(T0 + MINUTE);
        await store.deleteApiKey({ id: key.id, wallet: WALLET_A, now: T0 + 2 * MINUTE });
        await store.touchApiKey({ id: key.id, now: T0 + 3 * MINUTE });
        expect(await store.getApiKey(key.id)).toBeNull();
        expect(await store.listApiKeys(WALLET_A)).toEqual([]);
      });
    });

    describe('credits', () => {
      it('the same payment reference credits once', async () => {
        const key = await store.createApiKey(newKey());
        expect(await store.addCredits({ keyId: key.id, amount: 100, reference: 'tx:0x01', now: T0 })).toEqual({
          applied: true,
          balance: 100,
        });
        expect(await store.addCredits({ keyId: key.id, amount: 100, reference: 'tx:0x01', now: T0 + 1 })).toEqual({
          applied: false,
          balance: 100,
        });
        expect(await store.addCredits({ keyId: key.id, amount: 250, reference: 'tx:0x02', now: T0 + 2 })).toEqual({
          applied: true,
          balance: 350,
        });
        expect(await store.getCredits(key.id)).toBe(350);
      });

      it('a payment reference credits only one key, even after that key is deleted', async () => {
        const a = await store.createApiKey(newKey());
        const b = await store.createApiKey(newKey());
        await store.addCredits({ keyId: a.id, amount: 100, reference: 'tx:0x01', now: T0 });
        expect(await store.addCredits({ keyId: b.id, amount: 100, reference: 'tx:0x01', now: T0 })).toEqual({
          applied: false,
          balance: 0,
        });
        await store.deleteApiKey({ id: a.id, wallet: WALLET_A, now: T0 });
        expect(await store.addCredits({ keyId: b.id, amount: 100, reference: 'tx:0x01', now: T0 })).toEqual({
          applied: false,
          balance: 0,
        });
      });

      it('of 50 concurrent purchases with one reference, one is applied', async () => {
        const key = await store.createApiKey(newKey());
        const results = await spread(stores, 50, (s) =>
          s.addCredits({ keyId: key.id, amount: 1000, reference: 'tx:0x03', now: T0 }),
        );
        expect(results.filter((r) => r.applied)).toHaveLength(1);
        expect(await store.getCredits(key.id)).toBe(1000);
      });

      it('crediting a key that does not exist fails', async () => {
        await expect(
          store.addCredits({ keyId: 'no-such-key', amount: 100, reference: 'tx:0x04', now: T0 }),
        ).rejects.toBeInstanceOf(ApiKeyNotFoundError);
        const key = await store.createApiKey(newKey());
        // The failed attempt did not use the reference up.
        expect(await store.addCredits({ keyId: key.id, amount: 100, reference: 'tx:0x04', now: T0 })).toEqual({
          applied: true,
          balance: 100,
        });
      });

      it('a debit never takes the balance below 0', async () => {
        const key = await store.createApiKey(newKey());
        expect(await store.debitCredit({ keyId: key.id, now: T0 })).toEqual({ ok: false, balance: 0 });
        await store.addCredits({ keyId: key.id, amount: 2, reference: randomUUID(), now: T0 });
        expect(await store.debitCredit({ keyId: key.id, amount: 3, now: T0 })).toEqual({ ok: false, balance: 2 });
        expect(await store.debitCredit({ keyId: key.id, now: T0 })).toEqual({ ok: true, balance: 1 });
        expect(await store.debitCredit({ keyId: key.id, now: T0 })).toEqual({ ok: true, balance: 0 });
        expect(await store.debitCredit({ keyId: key.id, now: T0 })).toEqual({ ok: false, balance: 0 });
      });

      it('1,000 concurrent debits against 300 credits: exactly 300 succeed and the balance is 0', async () => {
        const key = await store.createApiKey(newKey());
        await store.addCredits({ keyId: key.id, amount: 300, reference: randomUUID(), now: T0 });
        const results = await spread(stores, 1000, (s) => s.debitCredit({ keyId: key.id, now: T0 }));
        expect(results.filter((r) => r.ok)).toHaveLength(300);
        expect(results.every((r) => r.balance >= 0)).toBe(true);
        expect(await store.getCredits(key.id)).toBe(0);
      });

      it('a debit that succeeds moves its counter by one in the same step; a refused debit moves nothing', async () => {
        const key = await store.createApiKey(newKey());
        const spent = creditsUsed(key.id);
        await store.addCredits({ keyId: key.id, amount: 2, reference: 'tx:0x09', now: T0 });
        expect(await store.debitCredit({ keyId: key.id, count: spent, now: T0 })).toEqual({ ok: true, balance: 1 });
        expect(await store.debitCredit({ keyId: key.id, count: spent, now: T0 })).toEqual({ ok: true, balance: 0 });
        expect(await store.debitCredit({ keyId: key.id, count: spent, now: T0 })).toEqual({ ok: false, balance: 0 });
        expect((await stores.at(-1)!.readQuota({ counters: [spent], now: T0 + 1 })).counts).toEqual([2]);
        // The counter is a daily window like any other: the next day starts at 0.
        expect((await store.readQuota({ counters: [spent], now: T0 + DAY })).counts).toEqual([0]);
        // The count is the key's own: one owned by anyone else is refused.
        const foreign = { ...spent, owner: 'ip:203.0.113.7' };
        await expect(store.debitCredit({ keyId: key.id, count: foreign, now: T0 })).rejects.toThrow(/owned by/);
      });

      it('1,000 concurrent counted debits against 300 credits: the counter ends at exactly 300', async () => {
        const key = await store.createApiKey(newKey());
        const spent = creditsUsed(key.id);
        await store.addCredits({ keyId: key.id, amount: 300, reference: 'tx:0x0a', now: T0 });
        const results = await spread(stores, 1000, (s) => s.debitCredit({ keyId: key.id, count: spent, now: T0 }));
        expect(results.filter((r) => r.ok)).toHaveLength(300);
        expect((await store.readQuota({ counters: [spent], now: T0 })).counts).toEqual([300]);
      });

      it('a named debit is given back exactly once: its credits and its count return, a second refund gives nothing', async () => {
        const key = await store.createApiKey(newKey());
        const spent = creditsUsed(key.id);
        await store.addCredits({ keyId: key.id, amount: 5, reference: randomUUID(), now: T0 });
        const debit = { keyId: key.id, amount: 2, count: spent, now: T0, id: randomUUID() };
        expect(await store.debitCredit(debit)).toEqual({ ok: true, balance: 3 });
        expect(await store.debitCredit({ keyId: key.id, count: spent, now: T0, id: randomUUID() })).toEqual({
          ok: true,
          balance: 2,
        });
        // Given back from another instance over the same data: the receipt is shared like the balance.
        const other = stores.at(-1)!;
        expect(await other.refundDebit(debit)).toBe(true);
        expect(await store.getCredits(key.id)).toBe(4);
        expect((await store.readQuota({ counters: [spent], now: T0 + 1 })).counts).toEqual([1]);
        expect(await store.refundDebit(debit)).toBe(false);
        expect(await other.refundDebit(debit)).toBe(false);
        expect(await store.getCredits(key.id)).toBe(4);
      });

      it('a refund of a debit that never ran, was refused, or was not named gives back nothing', async () => {
        const key = await store.createApiKey(newKey());
        await store.addCredits({ keyId: key.id, amount: 1, reference: randomUUID(), now: T0 });
        expect(await store.refundDebit({ keyId: key.id, id: randomUUID(), now: T0 })).toBe(false);
        const refused = { keyId: key.id, amount: 2, now: T0, id: randomUUID() };
        expect(await store.debitCredit(refused)).toEqual({ ok: false, balance: 1 });
        expect(await store.refundDebit(refused)).toBe(false);
        expect(await store.debitCredit({ keyId: key.id, now: T0 })).toEqual({ ok: true, balance: 0 });
        expect(await store.getCredits(key.id)).toBe(0);
        // One key's receipt is not another's.
        const mine = { keyId: key.id, now: T0, id: randomUUID() };
        await store.addCredits({ keyId: key.id, amount: 1, reference: randomUUID(), now: T0 });
        await store.debitCredit(mine);
        const otherKey = await store.createApiKey(newKey());
        expect(await store.refundDebit({ ...mine, keyId: otherKey.id })).toBe(false);
        expect(await store.getCredits(otherKey.id)).toBe(0);
      });

      it('1,000 concurrent refunds of 100 named debits give back exactly 100 credits', async () => {
        const key = await store.createApiKey(newKey());
        await store.addCredits({ keyId: key.id, amount: 100, reference: randomUUID(), now: T0 });
        const debits = Array.from({ length: 100 }, () => ({ keyId: key.id, now: T0, id: randomUUID() }));
        for (const debit of debits) expect((await store.debitCredit(debit)).ok).toBe(true);
        const results = await spread(stores, 1000, (s, i) => s.refundDebit(debits[i % 100]!));
        expect(results.filter(Boolean)).toHaveLength(100);
        expect(await store.getCredits(key.id)).toBe(100);
      });

      it('amounts must be positive whole numbers', async () => {
        const key = await store.createApiKey(newKey());
        await expect(store.addCredits({ keyId: key.id, amount: -5, reference: 'r', now: T0 })).rejects.toThrow(
          /amount/,
        );
        await expect(store.debitCredit({ keyId: key.id, amount: 0.5, now: T0 })).rejects.toThrow(/amount/);
      });
    });

    describe('x402 payment nonces', () => {
      it('a payment nonce is spent once', async () => {
        const params = { key: '0xfrom:0xnonce1', expiresAt: T0 + 10 * MINUTE, now: T0 };
        expect(await store.markPaymentNonceSpent(params)).toBe(true);
        for (const s of stores) expect(await s.markPaymentNonceSpent({ ...params, now: T0 + 1 })).toBe(false);
        expect(await store.markPaymentNonceSpent({ ...params, key: '0xfrom:0xnonce2' })).toBe(true);
      });

      it('of 50 concurrent settlements with one payment nonce, one wins', async () => {
        const results = await spread(stores, 50, (s) =>
          s.markPaymentNonceSpent({ key: '0xfrom:0xnonce3', expiresAt: T0 + MINUTE, now: T0 }),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('an authorization that has already expired is refused', async () => {
        expect(await store.markPaymentNonceSpent({ key: '0xfrom:0xnonce4', expiresAt: T0, now: T0 })).toBe(false);
      });

      it('a released nonce (its payment was refused before settlement) can be spent again, once, on every instance', async () => {
        const params = { key: '0xfrom:0xnonce5', expiresAt: T0 + MINUTE, now: T0 };
        expect(await store.markPaymentNonceSpent(params)).toBe(true);
        await store.releasePaymentNonce(params.key);
        const again = await spread(stores, 10, (s) => s.markPaymentNonceSpent({ ...params, now: T0 + 1 }));
        expect(again.filter(Boolean)).toHaveLength(1);
        await store.releasePaymentNonce('0xfrom:never-spent');
      });
    });

    describe('subnames', () => {
      it('a label can be registered once, and its records are served back', async () => {
        const record = subname();
        expect(await store.putSubname(record)).toBe(true);
        expect(await store.putSubname(subname({ owner: WALLET_B }))).toBe(false);
        expect(await store.getSubname({ parent: 'example.eth', label: 'alice' })).toEqual({
          ...record,
          owner: WALLET_A.toLowerCase(),
        });
        expect(await store.getSubname({ parent: 'example.eth', label: 'bob' })).toBeNull();
        expect(await store.getSubname({ parent: 'other.eth', label: 'alice' })).toBeNull();
      });

      it('a subname without a contenthash has none', async () => {
        const record = subname({ records: { addresses: {}, texts: {} } });
        await store.putSubname(record);
        expect((await store.getSubname({ parent: 'example.eth', label: 'alice' }))?.records).toEqual({
          addresses: {},
          texts: {},
        });
      });

      it('of 20 concurrent registrations of one label, one wins', async () => {
        const results = await spread(stores, 20, (s, i) =>
          s.putSubname(subname({ label: 'taken', createdAt: T0 + i })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.countSubnames('example.eth')).toBe(1);
      });

      it('subnames are listed oldest first with offset pagination, and counted per parent and in total', async () => {
        await store.putSubname(subname({ label: 'carol', createdAt: T0 + 2 }));
        await store.putSubname(subname({ label: 'bob', createdAt: T0 + 1 }));
        await store.putSubname(subname({ label: 'alice', createdAt: T0 + 1 }));
        await store.putSubname(subname({ parent: 'other.eth', label: 'dave', createdAt: T0 }));
        const labels = async (limit: number, offset: number) =>
          (await store.listSubnames({ parent: 'example.eth', limit, offset })).map((s) => s.label);
        expect(await labels(20, 0)).toEqual(['alice', 'bob', 'carol']);
        expect(await labels(2, 1)).toEqual(['bob', 'carol']);
        expect(await labels(20, 3)).toEqual([]);
        expect(await labels(0, 0)).toEqual([]);
        expect(await store.countSubnames('example.eth')).toBe(3);
        expect(await store.countSubnames('nobody.eth')).toBe(0);
        expect(await store.countSubnames()).toBe(4);
      });
    });

    describe('service secrets', () => {
      it('a secret is created once and every later call, on any instance, gets the same value', async () => {
        const first = await store.getOrCreateSecret('jwt', () => 'secret-one');
        expect(first).toBe('secret-one');
        expect(await stores[stores.length - 1].getOrCreateSecret('jwt', () => 'secret-two')).toBe('secret-one');
        expect(await store.getOrCreateSecret('other', () => 'secret-three')).toBe('secret-three');
      });

      it('of 20 concurrent first calls one value wins and all of them get it', async () => {
        const values = await spread(stores, 20, (s, i) => s.getOrCreateSecret('race', () => `candidate-${i}`));
        expect(new Set(values).size).toBe(1);
        expect(values[0]).toMatch(/^candidate-\d+$/);
      });
    });

    describe('ENS record index', () => {
      const node = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
      const limits = { texts: 3, coinTypes: 2 };

      it('keeps each name’s text keys and coin types once, in the order first added, and whether it has a content hash', async () => {
        await store.addNameRecordKeys({
          node: node(1),
          texts: ['avatar', 'url'],
          coinTypes: [60],
          contenthash: false,
          limits,
        });
        await stores[stores.length - 1].addNameRecordKeys({
          node: node(1).toUpperCase().replace('0X', '0x'),
          texts: ['url', 'com.twitter'],
          coinTypes: [0, 60],
          contenthash: true,
          limits,
        });
        await store.addNameRecordKeys({
          node: node(2),
          texts: ['description'],
          coinTypes: [],
          contenthash: false,
          limits,
        });
        expect(await store.nameRecordKeys([node(2), node(1), node(3)])).toEqual([
          { textKeys: ['description'], coinTypes: [], contentHash: false },
          { textKeys: ['avatar', 'url', 'com.twitter'], coinTypes: [60, 0], contentHash: true },
          { textKeys: [], coinTypes: [], contentHash: false },
        ]);
      });

      it('keeps no more than the limits per name: later keys are dropped, even when added concurrently', async () => {
        await spread(stores, 10, (s, i) =>
          s.addNameRecordKeys({ node: node(4), texts: [`key-${i}`], coinTypes: [i], contenthash: i === 0, limits }),
        );
        const [held] = await store.nameRecordKeys([node(4)]);
        expect(held!.textKeys).toHaveLength(3);
        expect(held!.coinTypes).toHaveLength(2);
        expect(held!.contentHash).toBe(true);
      });

      it('drops the keys a removal names, all of them at once; removing what is not held changes nothing', async () => {
        await store.addNameRecordKeys({
          node: node(5),
          texts: ['avatar', 'url', 'com.twitter'],
          coinTypes: [60, 0],
          contenthash: true,
          limits,
        });
        await stores[stores.length - 1].removeNameRecordKeys({
          node: node(5).toUpperCase().replace('0X', '0x'),
          texts: ['url', 'never-added'],
          coinTypes: [0, 501],
          contenthash: true,
        });
        await store.removeNameRecordKeys({ node: node(6), texts: ['url'], coinTypes: [60], contenthash: true });
        expect(await store.nameRecordKeys([node(5), node(6)])).toEqual([
          { textKeys: ['avatar', 'com.twitter'], coinTypes: [60], contentHash: false },
          { textKeys: [], coinTypes: [], contentHash: false },
        ]);
      });

      it('a removed key frees its place under the limits, and one added again comes last', async () => {
        await store.addNameRecordKeys({
          node: node(7),
          texts: ['a', 'b', 'c'],
          coinTypes: [1, 2],
          contenthash: false,
          limits,
        });
        await store.removeNameRecordKeys({ node: node(7), texts: ['a'], coinTypes: [1], contenthash: false });
        await store.addNameRecordKeys({
          node: node(7),
          texts: ['d', 'a'],
          coinTypes: [3, 1],
          contenthash: false,
          limits,
        });
        expect(await store.nameRecordKeys([node(7)])).toEqual([
          { textKeys: ['b', 'c', 'd'], coinTypes: [2, 3], contentHash: false },
        ]);
        await store.removeNameRecordKeys({
          node: node(7),
          texts: ['b', 'c', 'd'],
          coinTypes: [2, 3],
          contenthash: false,
        });
        await store.addNameRecordKeys({ node: node(7), texts: ['a'], coinTypes: [1], contenthash: true, limits });
        expect(await store.nameRecordKeys([node(7)])).toEqual([{ textKeys: ['a'], coinTypes: [1], contentHash: true }]);
      });

      it('removals and additions racing on one name leave the limits counting what is held', async () => {
        await store.addNameRecordKeys({
          node: node(8),
          texts: ['a', 'b', 'c'],
          coinTypes: [],
          contenthash: false,
          limits,
        });
        // Each key is removed and added again many times over, concurrently, from every store.
        await spread(stores, 30, (s, i) => {
          const key = ['a', 'b', 'c'][i % 3]!;
          return i % 2 === 0
            ? s.removeNameRecordKeys({ node: node(8), texts: [key], coinTypes: [], contenthash: false })
            : s.addNameRecordKeys({ node: node(8), texts: [key], coinTypes: [], contenthash: false, limits });
        });
        await store.addNameRecordKeys({
          node: node(8),
          texts: ['a', 'b', 'c'],
          coinTypes: [],
          contenthash: false,
          limits,
        });
        const [held] = await store.nameRecordKeys([node(8)]);
        expect([...held!.textKeys].sort()).toEqual(['a', 'b', 'c']);
        await store.removeNameRecordKeys({ node: node(8), texts: ['a', 'b', 'c'], coinTypes: [], contenthash: false });
        await store.addNameRecordKeys({
          node: node(8),
          texts: ['x', 'y', 'z', 'w'],
          coinTypes: [],
          contenthash: false,
          limits,
        });
        expect((await store.nameRecordKeys([node(8)]))[0]!.textKeys).toEqual(['x', 'y', 'z']);
      });

      it('refuses a node that is no namehash', async () => {
        await expect(
          store.addNameRecordKeys({ node: 'alice.eth', texts: ['a'], coinTypes: [], contenthash: false, limits }),
        ).rejects.toThrow(/namehash/);
        await expect(
          store.removeNameRecordKeys({ node: 'alice.eth', texts: ['a'], coinTypes: [], contenthash: false }),
        ).rejects.toThrow(/namehash/);
        await expect(store.nameRecordKeys(['{x}'])).rejects.toThrow(/namehash/);
      });
    });

    describeWebhookContract(() => stores);

    describe('lifecycle', () => {
      it('answers a ping and says what it is', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        expect(store.describe().kind).toBe(name);
        expect(store.describe().location).not.toMatch(/:[^:/@]+@/);
      });
    });
  });
}
