import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { BusEvent, LiveEventBus } from '../../src/store/live-event-bus.js';
import { openLiveEventBus } from '../../src/store/open-live-event-bus.js';
import { startSubgraphProcesses } from '../helpers/federation-processes.js';
import { causeUntilDelivered, reading } from '../helpers/live-reading.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** An ENS record change of alice.eth, as any instance's detectors publish it. */
const recordChanged = (id: string): BusEvent => ({
  id,
  type: 'ens.record_changed',
  timestamp: Date.now(),
  data: { name: 'alice.eth', record: 'text', key: 'url', value: `https://alice.example/${id}` },
});

describe('a subgraph served alone with REDIS_URL (npm run subgraph -- ens)', () => {
  it('hears on the shared bus the events other instances publish, each once; its SIGTERM completes the open stream', async () => {
    const prefix = testKeyPrefix('subgraph-live');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    const scratch = mkdtempSync(join(tmpdir(), 'api-subgraph-live-'));
    cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
    const started = await startSubgraphProcesses({
      names: ['ens'],
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        REDIS_VOLATILE_OK: 'true',
      },
      dataDirRoot: scratch,
    });
    cleanups.push(() => started.stop());
    const ens = started.subgraphs.get('ens')!;
    // Two other instances of the deployment (a server and another subgraph), on the same Redis and key prefix.
    const { redis, live } = loadConfig({ REDIS_URL: TEST_REDIS_URL });
    const others: LiveEventBus[] = [];
    for (let i = 0; i < 2; i += 1) {
      const bus = await openLiveEventBus({ redis, prefix, replay: live.replay });
      cleanups.push(() => bus.close());
      others.push(bus);
    }
    expect(others[0]!.kind).toBe('redis');

    const client = createSseClient({ url: `${ens.url}/graphql`, retryAttempts: 0 });
    cleanups.push(async () => client.dispose());
    const stream = reading(
      client.iterate({ query: 'subscription { ensEvents(names: ["alice.eth"]) { id type data } }' }),
    );
    // Each event published by both other instances, as two detectors of one fact would.
    let published = 0;
    const publishTwice = async () => {
      const event = recordChanged(`evt_subgraph_redis_${++published}`);
      await others[0]!.publish([event]);
      await others[1]!.publish([event]);
      return event.id;
    };
    const last = await causeUntilDelivered(stream, publishTwice, (e) => e.id);
    expect(stream.errors).toEqual([]);
    const ids = stream.got.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id === last)).toHaveLength(1);
    expect(stream.got.find((e) => e.id === last)).toMatchObject({
      type: 'ens.record_changed',
      data: { name: 'alice.eth', value: `https://alice.example/${last}` },
    });

    // SIGTERM: the open stream completes (graphql-sse's `complete`, no error) before the process is gone.
    await ens.stop();
    await stream.ended;
    expect(stream.errors).toEqual([]);
  }, 240_000);
});
