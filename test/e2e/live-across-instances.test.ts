import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { runDemo } from '../../src/server/demo.js';
import type { BusEvent } from '../../src/store/live-event-bus.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const bob = getDevAccounts()[2]!.address;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function until(test: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !test(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Reads a subscription into `got` in the background; `done` resolves when the stream ends (true: completed). */
function reading(events: AsyncIterableIterator<{ data?: unknown; errors?: unknown }>) {
  const got: unknown[] = [];
  const done = (async () => {
    for await (const result of events) got.push(result.errors ?? result.data);
    return true;
  })();
  return { got, done };
}

describe('two instances on one Redis', () => {
  it('a subscriber on instance B gets an event once, whichever instance detected or published it; B’s shutdown completes its stream', async () => {
    const prefix = testKeyPrefix('live');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    const shared = { REDIS_URL: TEST_REDIS_URL, WEBHOOK_POLL_MS: '100', ...LIVE_SECRETS };
    const a: TestServer = await startTestServer(shared, { storePrefix: prefix });
    cleanups.push(() => a.close());
    // B reads A's chain as its live Ethereum: both watch the same blocks, as instances of one deployment do.
    const b: TestServer = await startTestServer(
      { ...shared, ETH_RPC_URL: a.localChain!.rpcUrl, WEBHOOK_CONFIRMATIONS: '0' },
      { storePrefix: prefix },
    );
    cleanups.push(() => b.close());
    expect(b.live.bus.kind).toBe('redis');

    const query = `subscription { walletTransfers(addresses: ["${bob}"]) { id type data } }`;
    const client = createSseClient({ url: `${b.url}/graphql`, retryAttempts: 0 });
    const subscription = reading(client.iterate({ query }));
    await until(() => b.live.open() === 1, 'the subscription on B');
    // A subscriber on A too: each instance's chain detector now watches bob, so both detect the transfer.
    const onA = reading(createSseClient({ url: `${a.url}/graphql`, retryAttempts: 0 }).iterate({ query }));
    await until(() => a.live.open() === 1, 'the subscription on A');
    const heardOnA: string[] = [];
    a.live.bus.listen((e) => void heardOnA.push(e.id));

    // alice sends bob ETH on the chain both instances watch: detected by both, published once, delivered once to each.
    let out = '';
    const code = await runDemo(['eth', bob, '0.03'], { env: { API_URL: a.url }, write: (t) => void (out += t) });
    expect(code, out).toBe(0);
    await until(() => subscription.got.length >= 1 && onA.got.length >= 1, 'the transfer on B and on A');
    const transferId = (subscription.got[0] as { walletTransfers: { id: string } }).walletTransfers.id;

    // An event as A's detectors publish it, and the same event published again by B: B's subscriber gets it once.
    const event: BusEvent = {
      id: 'evt_live_across_1',
      type: 'wallet.transfer',
      timestamp: Date.now(),
      data: { from: bob, to: '0x00000000000000000000000000000000000000aa', value: '5' },
    };
    await a.live.bus.publish([event]);
    await b.live.bus.publish([event]);
    await until(() => subscription.got.length >= 2, 'A’s event on B');
    // Time for a duplicate to show up, if either instance were to send one.
    await new Promise((r) => setTimeout(r, 1500));
    const ids = subscription.got.map((d) => (d as { walletTransfers: { id: string } }).walletTransfers.id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe('evt_live_across_1');
    const transfer = (subscription.got[0] as { walletTransfers: { data: { to: string } } }).walletTransfers;
    expect(transfer.data.to.toLowerCase()).toBe(bob.toLowerCase());
    // Two detections, one publication (the id's SET NX claim): the bus carried it once, A's subscriber got it once.
    expect(heardOnA.filter((id) => id === transferId)).toHaveLength(1);
    const idsOnA = onA.got.map((d) => (d as { walletTransfers: { id: string } }).walletTransfers.id);
    expect(idsOnA.filter((id) => id === transferId)).toHaveLength(1);

    // SIGTERM's graceful stop: the open streams complete (no error) before the instance is gone.
    await b.close();
    expect(await subscription.done).toBe(true);
    await a.close();
    expect(await onA.done).toBe(true);
  });
});
