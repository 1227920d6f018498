import { expect, vi } from 'vitest';
import type { ChainKey } from '../../src/config/chains.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * A server for tests that count the RPC calls their requests make: anonymous limits out of the way, and the ENS record
 * indexes (Ethereum's and Base's) poll each chain once at start, to read the seed (waited for here), then not for a
 * minute, so the calls counted after this resolves are the requests' own.
 * @example const server = await startRpcCountingServer((chain, method) => rpc.push({ chain, method }))
 */
export async function startRpcCountingServer(
  onRpcRequest: (chain: ChainKey, method: string, params?: unknown) => void,
): Promise<TestServer> {
  const server = await startTestServer(
    { ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000', WEBHOOK_POLL_MS: '60000' },
    { onRpcRequest },
  );
  await vi.waitFor(
    async () => {
      for (const name of ['alice.eth', 'demo.base.eth']) {
        const list = (await (await server.get(`/api/ens/records/${name}`)).json()) as { texts?: object };
        expect(Object.keys(list.texts ?? {}).length, name).toBeGreaterThan(0);
      }
    },
    { timeout: 30_000, interval: 100 },
  );
  return server;
}
