import { afterAll, describe, expect, it } from 'vitest';
import { liveWatch } from '../../src/arguments/live-arguments.js';
import { LiveTallies } from '../../src/observability/live-tallies.js';
import { type BusEvent, inProcessEventBus, type LiveEventBus } from '../../src/store/live-event-bus.js';
import { redisEventBus } from '../../src/store/redis-live-event-bus.js';
import { liveHub } from '../../src/webhooks/live-hub.js';
import { LiveStream } from '../../src/webhooks/live-stream.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const REPLAY = { windowMs: 60_000, maxEvents: 100, maxBytes: 1 << 20 };
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
    expect(() => liveWatch('price', { prices: [{ symbol: 'ETH' }] })).toThrow(
      /exactly one of above, below or everyRefresh/,
    );
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
    const bus = inProcessEventBus(REPLAY);
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
      const bus = await redisEventBus({ target: { kind: 'single', url: TEST_REDIS_URL }, prefix, replay: REPLAY });
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

describe('the replay log a reconnecting client resumes from (Last-Event-ID)', () => {
  const positions = (events: { position: string }[]) => events.map((e) => e.position);
  const ids = (events: { id: string }[]) => events.map((e) => e.id);

  it('in process: gives the events after a position, oldest first, at most maxEvents and none older than the window', async () => {
    let now = Date.UTC(2026, 0, 1);
    const bus = inProcessEventBus({ windowMs: 60_000, maxEvents: 3, maxBytes: 1 << 20 }, () => now);
    const heard: { id: string; position: string }[] = [];
    bus.listen((e) => void heard.push(e));
    await bus.publish([transfer('r1'), transfer('r2')]);
    now += 1;
    await bus.publish([transfer('r3'), transfer('r2')]);
    expect(ids(heard)).toEqual(['r1', 'r2', 'r3']);
    // Positions grow within one millisecond and across: the SSE ids a client sends back.
    expect(positions(heard)).toEqual([`${now - 1}-0`, `${now - 1}-1`, `${now}-0`]);
    expect(ids(await bus.since(heard[0]!.position))).toEqual(['r2', 'r3']);
    expect(await bus.since(heard[2]!.position)).toEqual([]);
    // Count: the fourth event pushes the first out.
    await bus.publish([transfer('r4')]);
    expect(ids(await bus.since('0-0'))).toEqual(['r2', 'r3', 'r4']);
    // Time: past the window, nothing is kept.
    now += 60_001;
    expect(await bus.since('0-0')).toEqual([]);
    // A Last-Event-ID this service never gave out resumes nothing.
    expect(await bus.since('not-a-position')).toEqual([]);
  });

  it('on Redis: an instance replays what another published, the newest maxEvents within the window', async () => {
    const prefix = testKeyPrefix('live-replay');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    let now = Date.now();
    const open = async (maxEvents: number): Promise<LiveEventBus> => {
      const bus = await redisEventBus({
        target: { kind: 'single', url: TEST_REDIS_URL },
        prefix,
        replay: { windowMs: 60_000, maxEvents, maxBytes: 1 << 20 },
        now: () => now,
      });
      cleanups.push(() => bus.close());
      return bus;
    };
    const [a, b] = await Promise.all([open(100), open(2)]);
    const heard: { id: string; position: string }[] = [];
    b.listen((e) => void heard.push(e));
    await a.publish([transfer('s1'), transfer('s2'), transfer('s3')]);
    for (let waited = 0; heard.length < 3 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(ids(heard)).toEqual(['s1', 's2', 's3']);
    expect(ids(await a.since(heard[0]!.position))).toEqual(['s2', 's3']);
    expect(positions(await a.since(heard[0]!.position))).toEqual(positions(heard.slice(1)));
    // b keeps (reads) the newest two.
    expect(ids(await b.since('0-0'))).toEqual(['s2', 's3']);
    // Past the window (counted from this instance's clock, which started before the events were added).
    now += 120_000;
    expect(await a.since('0-0')).toEqual([]);
  });

  it('keeps at most maxBytes of events (as JSON), in process and given from the Redis stream: the oldest go first', async () => {
    const bytesOf = (e: BusEvent) => Buffer.byteLength(JSON.stringify({ ...e, position: `${Date.now()}-00` }));
    // Room for two transfers' JSON, not three.
    const maxBytes = 2 * bytesOf(transfer('b1')) + 4;
    const local = inProcessEventBus({ windowMs: 60_000, maxEvents: 100, maxBytes });
    await local.publish([transfer('b1'), transfer('b2'), transfer('b3')]);
    expect(ids(await local.since('0-0'))).toEqual(['b2', 'b3']);
    // An event larger than the whole budget is published but not kept.
    const heard: string[] = [];
    local.listen((e) => void heard.push(e.id));
    await local.publish([transfer('b4'), { ...transfer('huger'), data: { memo: 'x'.repeat(maxBytes) } }]);
    expect(heard).toEqual(['b4', 'huger']);
    expect(ids(await local.since('0-0'))).toEqual(['b3', 'b4']);

    const prefix = testKeyPrefix('live-replay-bytes');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    const redis = await redisEventBus({
      target: { kind: 'single', url: TEST_REDIS_URL },
      prefix,
      replay: { windowMs: 60_000, maxEvents: 100, maxBytes },
    });
    cleanups.push(() => redis.close());
    await redis.publish([transfer('r-b1'), transfer('r-b2'), transfer('r-b3')]);
    expect(ids(await redis.since('0-0'))).toEqual(['r-b2', 'r-b3']);
  });

  it('a resuming subscription gets the missed events it wants, then the live ones, each once', async () => {
    const bus = inProcessEventBus(REPLAY);
    const heard: { position: string }[] = [];
    bus.listen((e) => void heard.push(e));
    await bus.publish([transfer('m0')]);
    const seen = heard[0]!.position;
    // Missed while away: two for ALICE, one for someone else.
    await bus.publish([transfer('m1'), transfer('m2', '0x00000000000000000000000000000000000000ff'), transfer('m3')]);
    const tallies = new LiveTallies();
    const hub = liveHub({ bus, bufferEvents: 10, startWatching: async () => {}, tallies });
    const events = await hub.open(liveWatch('wallet', { addresses: [ALICE] }), {
      transport: 'sse',
      resumeAfter: seen,
    });
    expect(tallies.open.get('sse')).toBe(1);
    await bus.publish([transfer('m4'), transfer('m3')]);
    const got: { id: string; position?: string }[] = [];
    for (let i = 0; i < 3; i++) got.push((await events.next()).value);
    expect(ids(got)).toEqual(['m1', 'm3', 'm4']);
    expect(got.every((e) => typeof e.position === 'string')).toBe(true);
    expect(tallies.delivered.get('sse')).toBe(3);
    await events.return?.();
    expect(tallies.open.get('sse')).toBe(0);
    hub.stop();
  });

  it('a subscription dropped for a slow reader is counted by its transport', async () => {
    const bus = inProcessEventBus(REPLAY);
    const tallies = new LiveTallies();
    const hub = liveHub({ bus, bufferEvents: 1, startWatching: async () => {}, tallies });
    const events = await hub.open(liveWatch('wallet', { addresses: [ALICE] }), { transport: 'websocket' });
    await bus.publish([transfer('d1'), transfer('d2')]);
    await expect(events.next()).rejects.toThrow(/subscription dropped/);
    expect(tallies.dropped.get('websocket')).toBe(1);
    expect(tallies.open.get('websocket')).toBe(0);
    hub.stop();
  });
});
