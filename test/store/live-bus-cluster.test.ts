import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent, LiveEventBus } from '../../src/store/live-event-bus.js';
import { redisEventBus } from '../../src/store/redis-live-event-bus.js';
import { type RedisClusterProcesses, startRedisCluster } from '../helpers/redis-cluster.js';

let cluster: RedisClusterProcesses;
const buses: LiveEventBus[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);

afterAll(async () => {
  for (const bus of buses) await bus.close();
  await cluster?.stop();
});

const event = (id: string): BusEvent => ({ id, type: 'ens.transfer', timestamp: 0, data: { name: 'alice.eth' } });

describe('the live event bus on a 3-master Redis Cluster', () => {
  it('an event published by two instances, its ids in every slot, is heard once by each instance and logged once', async () => {
    const open = async () => {
      const bus = await redisEventBus({
        target: cluster.target,
        prefix: 'live-cluster:',
        replay: { windowMs: 60_000, maxEvents: 1000, maxBytes: 1 << 20 },
      });
      buses.push(bus);
      return bus;
    };
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    const heard: string[][] = [[], [], []];
    for (const [i, bus] of [a, b, c].entries()) bus.listen((e) => void heard[i]!.push(e.id));
    // Ids whose claim keys hash to many slots, so the claims land on every master.
    const ids = Array.from({ length: 30 }, (_, i) => `evt_cluster_${i}`);
    await Promise.all([a.publish(ids.map(event)), b.publish(ids.map(event))]);
    for (let waited = 0; heard.some((h) => h.length < ids.length) && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    for (const h of heard) expect([...h].sort()).toEqual([...ids].sort());
    // The replay log (one stream key, one slot) holds each once, in the order heard, for a client resuming anywhere.
    const replayed = await c.since('0-0');
    expect(replayed.map((e) => e.id)).toEqual(heard[2]);
  });
});
