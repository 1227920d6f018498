import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FarcasterCastRecord } from '../../src/sources/farcaster/farcaster-records.js';
import type { FarcasterSources } from '../../src/sources/farcaster/farcaster-sources.js';
import type { PriceSources } from '../../src/sources/prices/price-sources.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { nextAttemptAt } from '../../src/webhooks/delivery-worker.js';
import { farcasterDetector } from '../../src/webhooks/detectors/farcaster-detector.js';
import { priceAlertDetector } from '../../src/webhooks/detectors/price-alert-detector.js';
import { eventId } from '../../src/webhooks/event-id.js';
import { eventPublisher } from '../../src/webhooks/event-publisher.js';
import { eventMonth } from '../../src/webhooks/webhook-plans.js';

const WALLET = `0x${'ab'.repeat(20)}`;
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-detectors-'));
  store = openSqliteStore({ file: join(dir, 'store.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const webhook = (events: string[], filters: Record<string, unknown>) =>
  store.createWebhook({
    webhook: {
      id: randomUUID(),
      wallet: WALLET,
      url: 'https://hooks.example.org',
      events,
      filters,
      secret: 's',
      createdAt: 1,
    },
    maxWebhooks: null,
  });

const payloads = async (webhookId: string) =>
  (await store.listDeliveries({ webhookId, limit: 100, offset: 0 })).reverse().map((d) => JSON.parse(d.payload));

describe('price.alert', () => {
  it('fires once when the price crosses the threshold, again only after it went back; two instances agree', async () => {
    const hook = (await webhook(['price.alert'], { prices: [{ symbol: 'ETH', above: 3000 }] }))!;
    let price = 2900;
    const prices = {
      coingecko: {
        marketQuotes: async (ids: readonly string[]) =>
          new Map(
            ids.map((id) => [
              id,
              {
                coingeckoId: id,
                priceUsd: price,
                change24hPercent: null,
                volume24hUsd: null,
                marketCapUsd: null,
                quotedAt: null,
              },
            ]),
          ),
      },
    } as unknown as PriceSources;
    const publish = eventPublisher({ store });
    const instances = [0, 1].map(() => priceAlertDetector({ prices, store, publish, intervalMs: 1000 }));
    const refresh = async (to: number) => {
      price = to;
      for (const detector of instances) await detector.step();
    };
    await refresh(2900);
    await refresh(3100);
    await refresh(3200);
    await refresh(2950);
    await refresh(3001);
    const sent = await payloads(hook.id);
    // Two alerts recorded within one millisecond have no order in the outbox: compared by price.
    expect(sent.map((p) => p.data).sort((a, b) => b.price - a.price)).toEqual([
      { symbol: 'ETH', price: 3100, threshold: 3000, direction: 'above', previousPrice: 2900 },
      { symbol: 'ETH', price: 3001, threshold: 3000, direction: 'above', previousPrice: 2950 },
    ]);
    expect(sent.every((p) => p.type === 'price.alert')).toBe(true);
  });
});

describe('farcaster.cast and farcaster.follow', () => {
  it('the first poll sets the cursor; later casts and followers arrive once each', async () => {
    const hook = (await webhook(['farcaster.cast', 'farcaster.follow'], { fids: [3] }))!;
    const cast = (hash: string, timestamp: string): FarcasterCastRecord =>
      ({ hash, text: `cast ${hash}`, timestamp, likes: null, recasts: null, replies: null }) as FarcasterCastRecord;
    let casts = [cast('0x01', '2025-03-01T00:00:00.000Z')];
    let followers = [{ fid: 10, profile: null }];
    const farcaster = {
      casts: async () => ({ items: casts, more: false }),
      followers: async () => ({ items: followers, more: false }),
    } as unknown as FarcasterSources;
    const detector = farcasterDetector({ farcaster, store, publish: eventPublisher({ store }), intervalMs: 1000 });
    await detector.step();
    expect(await payloads(hook.id)).toEqual([]);
    casts = [cast('0x02', '2025-03-02T00:00:00.000Z'), ...casts];
    followers = [{ fid: 11, profile: null }, ...followers];
    await detector.step();
    await detector.step();
    // Both are recorded in the same step: order by type, not by the millisecond they were stored in.
    const sent = (await payloads(hook.id)).sort((a, b) => a.type.localeCompare(b.type));
    expect(sent.map((p) => [p.type, p.data])).toEqual([
      ['farcaster.cast', { fid: 3, hash: '0x02', text: 'cast 0x02', timestamp: '2025-03-02T00:00:00.000Z' }],
      ['farcaster.follow', { fid: 3, follower: 11, username: null }],
    ]);
  });
});

describe('the publisher', () => {
  it("counts events against the owner's plan: past the Free plan's 1,000 a month they are dropped, a ping never counts", async () => {
    const hook = (await webhook(['ens.transfer'], {}))!;
    const publish = eventPublisher({ store });
    const events = Array.from({ length: 1001 }, (_, i) => ({
      id: eventId('test', i),
      type: 'ens.transfer' as const,
      timestamp: Date.now(),
      data: { name: `n${i}.eth` },
    }));
    expect(await publish(events)).toBe(1000);
    expect(await publish(events)).toBe(0);
    const ping = {
      id: eventId('ping', 1),
      type: 'ping' as const,
      timestamp: Date.now(),
      data: {},
      onlyWebhook: hook.id,
    };
    expect(await publish([ping])).toBe(1);
    expect(await store.countWebhookEvents({ wallet: WALLET, month: eventMonth(Date.now()) })).toBe(1000);
    const all = await store.listDeliveries({ webhookId: hook.id, limit: 2000, offset: 0 });
    const statuses: Record<string, number> = {};
    for (const d of all) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
    expect(statuses).toEqual({ pending: 1001, dropped: 1 });
    expect(all.find((d) => d.status === 'dropped')!.error).toMatch(/1000 events this month are used up/);
  });
});

describe('retries', () => {
  const policy = { retryBaseMs: 5000, retryWindowMs: 24 * 3_600_000 };
  it('back off exponentially with ±20 % jitter, at most an hour apart, and stop after 24 hours', () => {
    const at = (attempts: number, random: number, now = 0) =>
      nextAttemptAt({ attempts, createdAt: 0, now, policy, random: () => random });
    expect(at(1, 0.5)).toBe(5000);
    expect(at(1, 0)).toBe(4000);
    expect(at(1, 1)).toBe(6000);
    expect(at(4, 0.5)).toBe(40_000);
    expect(at(20, 0.5, 1000)).toBe(3_600_000 + 1000);
    expect(at(30, 0.5, 23.5 * 3_600_000)).toBe(24 * 3_600_000);
    expect(at(31, 0.5, 24 * 3_600_000)).toBe(null);
  });
});
