import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createPublicClient, custom, type Hex, HttpRequestError, toHex } from 'viem';
import { mainnet } from 'viem/chains';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveWatch } from '../../src/arguments/live-arguments.js';
import { createWebhookBody, parseWebhookInput } from '../../src/arguments/webhook-body.js';
import { loadConfig } from '../../src/config/config.js';
import type { FarcasterCastRecord } from '../../src/sources/farcaster/farcaster-records.js';
import type { FarcasterSources } from '../../src/sources/farcaster/farcaster-sources.js';
import type { PriceSources } from '../../src/sources/prices/price-sources.js';
import type { ChainRpcClient } from '../../src/sources/rpc/chain-clients.js';
import { inProcessEventBus } from '../../src/store/live-event-bus.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { nextAttemptAt } from '../../src/webhooks/delivery-worker.js';
import { chainEventDetector } from '../../src/webhooks/detectors/chain-event-detector.js';
import { farcasterDetector } from '../../src/webhooks/detectors/farcaster-detector.js';
import { priceAlertDetector } from '../../src/webhooks/detectors/price-alert-detector.js';
import { eventId } from '../../src/webhooks/event-id.js';
import { eventPublisher } from '../../src/webhooks/event-publisher.js';
import { isLiveEvent, liveHub } from '../../src/webhooks/live-hub.js';
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

describe('price.alert on every refresh (a subscription’s everyRefresh)', () => {
  it('fires on each new refresh of the prices source, whatever the price, once across instances', async () => {
    let quote = { price: 3000, quotedAt: 100 };
    const prices = {
      coingecko: {
        marketQuotes: async (ids: readonly string[]) =>
          new Map(ids.map((id) => [id, { coingeckoId: id, priceUsd: quote.price, quotedAt: quote.quotedAt }])),
      },
    } as unknown as PriceSources;
    const bus = inProcessEventBus({ windowMs: 60_000, maxEvents: 100, maxBytes: 1 << 20 });
    const hub = liveHub({ bus, bufferEvents: 10, startWatching: async () => {} });
    const events = await hub.open(liveWatch('price', { prices: [{ symbol: 'eth', everyRefresh: true }] }));
    const record = eventPublisher({ store });
    const publish = async (detected: Parameters<typeof record>[0], cursors?: Record<string, string>) => {
      const pending = await record(detected, cursors);
      await bus.publish(detected.filter(isLiveEvent));
      return pending;
    };
    const wanted = async () => hub.watchers();
    const instances = [0, 1].map(() => priceAlertDetector({ prices, store, wanted, publish, intervalMs: 1000 }));
    const refresh = async (next: typeof quote) => {
      quote = next;
      for (const detector of instances) await detector.step();
    };
    await refresh({ price: 3000, quotedAt: 100 });
    // The source has not refreshed: nothing new.
    await refresh({ price: 3000, quotedAt: 100 });
    // Refreshed at the same price, then at another.
    await refresh({ price: 3000, quotedAt: 160 });
    await refresh({ price: 2990.5, quotedAt: 220 });
    hub.completeAll();
    const got: unknown[] = [];
    for await (const event of events) got.push({ timestamp: event.timestamp, ...event.data });
    expect(got).toEqual([
      {
        timestamp: new Date(100_000).toISOString(),
        symbol: 'ETH',
        price: 3000,
        threshold: null,
        direction: 'refresh',
        previousPrice: null,
      },
      {
        timestamp: new Date(160_000).toISOString(),
        symbol: 'ETH',
        price: 3000,
        threshold: null,
        direction: 'refresh',
        previousPrice: 3000,
      },
      {
        timestamp: new Date(220_000).toISOString(),
        symbol: 'ETH',
        price: 2990.5,
        threshold: null,
        direction: 'refresh',
        previousPrice: 3000,
      },
    ]);
    hub.stop();
  });

  it('is a subscription’s argument only: exactly one of above, below or everyRefresh; a webhook keeps its thresholds', () => {
    expect(liveWatch('price', { prices: [{ symbol: 'eth', everyRefresh: true }] }).filters.prices).toEqual([
      { symbol: 'ETH', everyRefresh: true },
    ]);
    expect(() => liveWatch('price', { prices: [{ symbol: 'ETH', above: 1, everyRefresh: true }] })).toThrow(
      /exactly one of above, below or everyRefresh/,
    );
    expect(() =>
      parseWebhookInput(createWebhookBody, {
        url: 'https://hooks.example.org',
        events: ['price.alert'],
        filters: { prices: [{ symbol: 'ETH', everyRefresh: true }] },
      }),
    ).toThrow(/parameter filters\.prices\.0/);
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

/**
 * A chain whose every block from 1 on holds one transaction: SENDER pays CONTRACT (code) 5 wei with data, and CONTRACT
 * pays PAYEE 2 wei inside it. `trace` answers the trace methods (a thrown value is the node's error); every request is
 * counted in `asked` as `method block`.
 */
function chainNode(trace: (method: string, block: number) => unknown) {
  const SENDER = `0x${'11'.repeat(20)}` as const;
  const CONTRACT = `0x${'22'.repeat(20)}` as const;
  const PAYEE = `0x${'33'.repeat(20)}` as const;
  const node = { head: 1, asked: [] as string[], sender: SENDER, payee: PAYEE };
  const txHash = (n: number): Hex => toHex(n, { size: 32 });
  const tx = (n: number) => ({
    hash: txHash(n),
    from: SENDER,
    to: CONTRACT,
    value: '0x5',
    input: '0xd0e30db0',
    blockNumber: toHex(n),
    transactionIndex: '0x0',
  });
  const parity = (n: number) => [
    {
      type: 'call',
      action: { callType: 'call', from: SENDER, to: CONTRACT, value: '0x5' },
      traceAddress: [],
      transactionHash: txHash(n),
    },
    {
      type: 'call',
      action: { callType: 'call', from: CONTRACT, to: PAYEE, value: '0x2' },
      traceAddress: [0],
      transactionHash: txHash(n),
    },
  ];
  const callTracer = (n: number) => [
    {
      txHash: txHash(n),
      result: {
        type: 'CALL',
        from: SENDER,
        to: CONTRACT,
        value: '0x5',
        calls: [{ type: 'CALL', from: CONTRACT, to: PAYEE, value: '0x2' }],
      },
    },
  ];
  const client = createPublicClient({
    chain: mainnet,
    transport: custom(
      {
        request: async ({ method, params }: { method: string; params: unknown[] }) => {
          const block = typeof params?.[0] === 'string' && params[0].length < 20 ? Number(params[0]) : undefined;
          node.asked.push(block === undefined ? method : `${method} ${block}`);
          switch (method) {
            case 'eth_blockNumber':
              return toHex(node.head);
            case 'eth_getBlockByNumber':
              return {
                number: toHex(block!),
                hash: toHex(block!, { size: 32 }),
                timestamp: toHex(1_700_000_000 + block!),
                transactions: block === 0 ? [] : [params[1] ? tx(block!) : txHash(block!)],
              };
            case 'eth_getLogs':
              return [];
            case 'eth_getCode':
              return '0x6080';
            case 'eth_getTransactionReceipt':
              return { status: '0x1', transactionHash: params[0], logs: [] };
            case 'trace_block':
            case 'debug_traceBlockByNumber': {
              const answer = trace(method, block!);
              return answer === 'parity' ? parity(block!) : answer === 'callTracer' ? callTracer(block!) : answer;
            }
            default:
              throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
          }
        },
      },
      { retryCount: 0 },
    ),
  }) as ChainRpcClient;
  return Object.assign(node, { client });
}

const refused = (method: string) =>
  Object.assign(new Error(`the method ${method} does not exist/is not available`), { code: -32601 });

/** A wallet.transfer webhook on the chain node's sender and payee, a detector over the node, and what it logged. */
async function chainSetup(node: ReturnType<typeof chainNode>, traces = true) {
  const hook = (await webhook(['wallet.transfer'], { addresses: [node.sender, node.payee] }))!;
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const detector = chainEventDetector({
    client: node.client,
    chainId: 1,
    contracts: undefined,
    ensHistory: false,
    confirmations: 0,
    store,
    publish: eventPublisher({ store }),
    intervalMs: 1000,
    traces,
    logger,
  });
  /** The block and internal flag of each delivered transfer, in block order. */
  const transfers = async () =>
    (await payloads(hook.id))
      .map((p) => [p.data.blockNumber, p.data.internal])
      .sort((a, b) => a[0] - b[0] || Number(a[1]) - Number(b[1]));
  /** Move the head to `head` and run one poll. */
  const poll = async (head: number) => {
    node.head = head;
    await detector.step();
  };
  return { logs, transfers, poll };
}

describe('chain events: internal ETH transfers', () => {
  it('WEBHOOK_TRACES: traces on by default (auto), off with off, anything else refused at start', () => {
    expect(loadConfig({}).webhooks.traces).toBe(true);
    expect(loadConfig({ WEBHOOK_TRACES: 'auto' }).webhooks.traces).toBe(true);
    expect(loadConfig({ WEBHOOK_TRACES: 'off' }).webhooks.traces).toBe(false);
    expect(() => loadConfig({ WEBHOOK_TRACES: 'on' })).toThrow(/WEBHOOK_TRACES/);
  });

  it("asks the node's trace method once over several polls, then traces each block with it", async () => {
    // geth: trace_block refused, the callTracer answered.
    const node = chainNode((method) => (method === 'trace_block' ? Promise.reject(refused(method)) : 'callTracer'));
    const { transfers, poll, logs } = await chainSetup(node);
    await poll(1); // sets the cursor at block 1
    await poll(3);
    await poll(4);
    expect(node.asked.filter((m) => m.startsWith('trace_block'))).toEqual(['trace_block 3']);
    // The probe (block 3), then blocks 2, 3 and 4 traced.
    expect(node.asked.filter((m) => m.startsWith('debug_'))).toEqual([
      'debug_traceBlockByNumber 3',
      'debug_traceBlockByNumber 2',
      'debug_traceBlockByNumber 3',
      'debug_traceBlockByNumber 4',
    ]);
    expect(await transfers()).toEqual(withInternal(2, 3, 4));
    expect(logs.filter((l) => l.traceMethod === 'debug_traceBlockByNumber')).toHaveLength(1);
  });

  it('a node refusing both trace methods is asked once: top-level ETH only, one warning', async () => {
    const node = chainNode((method) => Promise.reject(refused(method)));
    const { transfers, poll, logs } = await chainSetup(node);
    await poll(1);
    await poll(3);
    await poll(4);
    expect(node.asked.filter((m) => m.includes('trace'))).toEqual(['trace_block 3', 'debug_traceBlockByNumber 3']);
    expect(await transfers()).toEqual(topLevel(2, 3, 4));
    expect(logs.filter((l) => String(l.msg).includes('answers neither'))).toHaveLength(1);
  });

  it('with traces off (WEBHOOK_TRACES=off) no trace is asked, and top-level ETH is still detected', async () => {
    const node = chainNode(() => 'parity');
    const { transfers, poll } = await chainSetup(node, false);
    await poll(1);
    await poll(3);
    expect(node.asked.filter((m) => m.includes('trace'))).toEqual([]);
    expect(await transfers()).toEqual(topLevel(2, 3));
  });

  it('a block whose trace fails for now is asked again on the next poll and loses nothing', async () => {
    let failures = 1;
    const node = chainNode((_, block) => (block === 2 && failures-- > 0 ? Promise.reject(timeout()) : 'parity'));
    const { transfers, poll, logs } = await chainSetup(node);
    await poll(1);
    await poll(3);
    // Block 2's top-level ETH and block 3 are delivered; the detector moved on.
    expect(await transfers()).toEqual([...topLevel(2), ...withInternal(3)]);
    expect(logs.filter((l) => l.block === 2).map((l) => [l.attempt, l.reason])).toEqual([
      [1, 'HttpRequestError: gateway timeout'],
    ]);
    await poll(4);
    expect(await transfers()).toEqual(withInternal(2, 3, 4));
  });

  it('a block whose trace keeps failing is skipped with a warning after three attempts; the chain goes on', async () => {
    const node = chainNode((_, block) => (block === 2 ? Promise.reject(timeout()) : 'parity'));
    const { transfers, poll, logs } = await chainSetup(node);
    for (const head of [1, 3, 4, 5, 6]) await poll(head);
    // The probe at block 3, then block 2 on three polls in all, and never again.
    expect(node.asked.filter((m) => m === 'trace_block 2')).toHaveLength(3);
    expect(await transfers()).toEqual([...topLevel(2), ...withInternal(3, 4, 5, 6)]);
    const warned = logs.filter((l) => l.block === 2);
    expect(warned.map((l) => l.attempt)).toEqual([1, 2, 3]);
    expect(String(warned[2]!.msg)).toContain('skipped');
    // The node's URL (with its key) is not logged.
    expect(JSON.stringify(logs)).not.toContain('SECRETKEY');
  });

  it('while the trace method is not known yet (the probe failed for now), blocks are traced once it is', async () => {
    let probeFailures = 1;
    const node = chainNode(() => (probeFailures-- > 0 ? Promise.reject(timeout()) : 'parity'));
    const { transfers, poll } = await chainSetup(node);
    await poll(1);
    await poll(3);
    expect(await transfers()).toEqual(topLevel(2, 3));
    await poll(4);
    expect(await transfers()).toEqual(withInternal(2, 3, 4));
  });
});

/** Transfers delivered for `blocks`: the top-level ETH only. */
const topLevel = (...blocks: number[]) => blocks.map((block) => [block, false]);
/** Transfers delivered for `blocks`: the top-level ETH and the internal payment. */
const withInternal = (...blocks: number[]) => blocks.flatMap((block) => [...topLevel(block), [block, true]]);

/** A gateway timeout from a node whose URL carries a key. */
const timeout = () =>
  new HttpRequestError({ url: 'https://rpc.example.org/v2/SECRETKEY', status: 504, details: 'gateway timeout' });

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
