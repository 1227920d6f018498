import { afterAll, describe, expect, it } from 'vitest';
import { liveWatch } from '../../src/arguments/live-arguments.js';
import { type BusEvent, inProcessEventBus, type LiveEventBus } from '../../src/store/live-event-bus.js';
import { redisEventBus } from '../../src/store/redis-live-event-bus.js';
import { liveHub } from '../../src/webhooks/live-hub.js';
import { LiveStream } from '../../src/webhooks/live-stream.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const transfer = (id: string, to = ALICE): BusEvent => ({
  id,
  type: 'wallet.transfer',
  timestamp: Date.UTC(2026, 0, 1),
  data: { from: '0x0000000000000000000000000000000000000001', to, value: '1' },
});

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a subscription checks its arguments as a webhook filter of its family', () => {
  it('takes the webhook body’s names, addresses and FIDs, normalised', () => {
    expect(liveWatch('ens', { names: ['Alice.ETH', '*.base.eth'] })).toEqual({
      events: ['ens.transfer', 'ens.record_changed'],
      filters: { names: ['alice.eth', '*.base.eth'] },
    });
    expect(liveWatch('wallet', { addresses: [ALICE.toUpperCase().replace('0X', '0x')] }).filters.addresses).toEqual([
      ALICE,
    ]);
    expect(liveWatch('price', { prices: [{ symbol: 'eth', above: 3000 }] }).filters.prices).toEqual([
      { symbol: 'ETH', above: 3000 },
    ]);
  });

  it('refuses what a webhook would refuse, as a 400 naming the argument', () => {
    expect(() => liveWatch('wallet', { addresses: ['0x12'] })).toThrow(/parameter addresses\.0/);
    expect(() => liveWatch('farcaster', { fids: [] })).toThrow(/parameter fids/);
    expect(() => liveWatch('price', { prices: [{ symbol: 'ETH' }] })).toThrow(/exactly one of above or below/);
    expect(() => liveWatch('ens', { names: ['alice.eth'], events: ['wallet.transfer'] })).toThrow(
      /wallet.transfer is not one of ens\.transfer/,
    );
  });
});

describe('one subscription’s stream', () => {
  it('holds at most its capacity for a reader that never reads, then ends with a clear error', async () => {
    let ended = 0;
    const stream = new LiveStream(3, () => ended++);
    const shape = (id: string) => ({ id, type: 't', timestamp: '', data: {} });
    for (const id of ['a', 'b', 'c']) expect(stream.push(shape(id))).toBe(true);
    expect(stream.push(shape('d'))).toBe(false);
    expect(stream.length).toBe(0);
    expect(ended).toBe(1);
    await expect(stream.next()).rejects.toThrow(/subscription dropped: 3 events waited/);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('delivers an event id once, however often it is heard', async () => {
    const stream = new LiveStream(10, () => {});
    const event = { id: 'same', type: 't', timestamp: '', data: {} };
    stream.push(event);
    stream.push(event);
    stream.complete();
    const ids: string[] = [];
    for await (const e of stream) ids.push(e.id);
    expect(ids).toEqual(['same']);
  });
});

async function collect(hub: ReturnType<typeof liveHub>, addresses: string[]): Promise<string[]> {
  const events = await hub.open(liveWatch('wallet', { addresses }));
  const ids: string[] = [];
  void (async () => {
    for await (const e of events) ids.push(e.id);
  })();
  return ids;
}

describe('the live event bus', () => {
  it('in process: a subscription hears the events its watch wants, and the detectors learn what it watches', async () => {
    const bus = inProcessEventBus();
    const watching: string[][] = [];
    const hub = liveHub({ bus, bufferEvents: 10, startWatching: async (e) => void watching.push([...e]) });
    const ids = await collect(hub, [ALICE]);
    expect(watching).toEqual([['wallet.transfer', 'wallet.nft_transfer']]);
    expect(hub.watchers()).toEqual([expect.objectContaining({ filters: { addresses: [ALICE] } })]);
    await bus.publish([transfer('e1'), transfer('e2', '0x00000000000000000000000000000000000000ff'), transfer('e1')]);
    await new Promise((r) => setImmediate(r));
    expect(ids).toEqual(['e1']);
    hub.stop();
    expect(hub.size).toBe(0);
  });

  it('on Redis: an event published by two instances reaches a subscriber on a third exactly once', async () => {
    const prefix = testKeyPrefix('live-bus');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    const open = async (): Promise<LiveEventBus> => {
      const bus = await redisEventBus({ target: { kind: 'single', url: TEST_REDIS_URL }, prefix });
      cleanups.push(() => bus.close());
      return bus;
    };
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    const hub = liveHub({ bus: c, bufferEvents: 10, startWatching: async () => {} });
    const ids = await collect(hub, [ALICE]);
    await Promise.all([a.publish([transfer('x1')]), b.publish([transfer('x1')])]);
    await a.publish([transfer('x2')]);
    for (let waited = 0; ids.length < 2 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(ids).toEqual(['x1', 'x2']);
    hub.stop();
  });
});
