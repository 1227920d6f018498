import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { watchEmbeddedPeers } from '../../src/server/embedded-peers.js';
import { openRedisStore } from '../../src/store/redis-store.js';
import { TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const warnings: string[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) },
  );
  return { logger, warnings };
}

/** Polls until `check` holds (a heartbeat comes on a timer), for at most `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

describe('two instances with embedded chains on one Redis store disagree on every chain read, and say so', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("the second to start warns at once, naming the first one's embedded Ethereum chain; one on its own store does not", async () => {
    const storePrefix = testKeyPrefix('embedded-peers');
    const env = { REDIS_URL: TEST_REDIS_URL };
    const [first, second, alone] = [recordingLogger(), recordingLogger(), recordingLogger()];
    servers.push(await startTestServer(env, { storePrefix, logger: first.logger }));
    servers.push(await startTestServer(env, { storePrefix, logger: second.logger }));
    servers.push(await startTestServer(env, { logger: alone.logger }));
    const peersWarning = (w: string) =>
      w.startsWith('another instance runs its own embedded chain on this Redis store');
    // The first learns of the second at its next heartbeat (within 10 s): the next test shows that, on a fast clock.
    expect(alone.warnings.filter(peersWarning)).toEqual([]);
    const [warning] = second.warnings.filter(peersWarning);
    expect(warning).toContain(`(Ethereum at ${servers[0]!.localChain!.rpcUrl} there)`);
    expect(warning).toContain('Point every instance at one chain (ETH_RPC_URL and BASE_RPC_URL)');
  });

  it('an instance already running warns when one appears, once; a peer that stops leaves at once, one that died is forgotten after its heartbeat', async () => {
    const prefix = testKeyPrefix('embedded-peers-watch');
    const stores = await Promise.all([1, 2, 3].map(() => openRedisStore({ url: TEST_REDIS_URL, prefix })));
    const identity = (port: number) => ({
      chains: [{ name: 'ethereum', chainId: 1, rpcUrl: `http://127.0.0.1:${port}` }],
    });
    const running = recordingLogger();
    const a = await watchEmbeddedPeers({
      store: stores[0]!,
      identity: identity(1001),
      logger: running.logger,
      everyMs: 25,
    });
    try {
      expect(a.peers()).toEqual([]);
      const b = await watchEmbeddedPeers({
        store: stores[1]!,
        identity: identity(1002),
        logger: pino({ level: 'silent' }),
        everyMs: 25,
      });
      await eventually(() => running.warnings.length > 0, 10_000);
      expect(running.warnings).toEqual([expect.stringContaining('(Ethereum at http://127.0.0.1:1002 there)')]);
      await new Promise((r) => setTimeout(r, 100));
      expect(running.warnings).toHaveLength(1);
      await b.stop();
      await eventually(() => a.peers().length === 0, 20_000);
      expect(a.peers()).toEqual([]);

      // A peer whose process died sends no more heartbeats: its last one (25 s ago by its clock) counts for 5 s more.
      const dead = await watchEmbeddedPeers({
        store: stores[2]!,
        identity: identity(1003),
        logger: pino({ level: 'silent' }),
        now: () => Date.now() - 25_000,
        everyMs: 3_600_000,
      });
      await eventually(() => a.peers().length === 1, 10_000);
      expect(JSON.parse(a.peers()[0]!.info).chains[0].rpcUrl).toBe('http://127.0.0.1:1003');
      await eventually(() => a.peers().length === 0, 20_000);
      expect(a.peers()).toEqual([]);
      await dead.stop();
    } finally {
      await a.stop();
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
