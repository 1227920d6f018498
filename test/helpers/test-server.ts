import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type Logger, pino } from 'pino';
import type { ChainKey } from '../../src/config/chains.js';
import { loadConfig } from '../../src/config/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { injectedFetch, type TestRequest } from './inject-fetch.js';
import { localChainClients } from './local-chain-clients.js';
import { testKeyPrefix } from './test-redis.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** One request, in process unless the server was started with `transport: 'socket'` (see startTestServer). */
  request(request: TestRequest): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** A JSON body (a string is sent as it is), `content-type: application/json` unless `headers` name another. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /**
   * Mines an empty block on an embedded chain: reads exact for the head block are made again after it, so a test
   * that counts upstream calls starts from a block nothing has read yet.
   */
  mineBlock(chain: 'ethereum' | 'base'): Promise<void>;
}

/**
 * The whole service on an ephemeral port with a fresh data dir, the embedded chain and the replay,
 * configured through the same env vars as `npm start`. It listens (the embedded chain's CCIP resolver, x402 offers and
 * stock clients reach it by its URL), but `get`, `post` and `request` go in process through Fastify's inject: the same
 * routes, hooks and answers without a socket. A test whose subject is the socket (the client's address behind
 * TRUST_PROXY, connections, framing) starts its server with `transport: 'socket'`, or calls `fetch(server.url…)`.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  /** storePrefix: Redis key namespace; give two servers the same one to make them instances sharing one store. */
  options: {
    storePrefix?: string;
    onRpcRequest?: (chain: ChainKey, method: string, params?: unknown) => void;
    /** Span processors of the test's own (an in-memory exporter): traces on (src/observability/start-tracing.ts). */
    spanProcessors?: readonly SpanProcessor[];
    /** A logger of the test's own (to read what the server logs); else silent. */
    logger?: Logger;
    /**
     * How get/post/request travel: in process (default) or over a socket to `url`, as fetch sends them. The env var
     * TEST_TRANSPORT=socket makes the socket every server's default.
     */
    transport?: 'inject' | 'socket';
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-test-'));
  // Tests share one machine and one Redis under heavy load: a store budget of seconds keeps them from answering 503
  // where no outage is meant (test/e2e/store-outage.test.ts sets the real default). The tests' Redis persists nothing.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STORE_TIMEOUT_MS: '3000',
    REDIS_VOLATILE_OK: 'true',
    // Idle connections are the test client's to close (undici keeps one at most 10 min): a server-side close after
    // 30 s raced a test whose event loop a long synchronous check had held past it, and its next call died ECONNRESET.
    KEEP_ALIVE_TIMEOUT_MS: '3600000',
    ...env,
  });
  // A shared Redis keeps counters across runs: each test server gets its own key namespace.
  const server = await createServer({
    config,
    logger: options.logger ?? pino({ level: 'silent' }),
    storePrefix: options.storePrefix ?? testKeyPrefix('server'),
    onRpcRequest: options.onRpcRequest,
    spanProcessors: options.spanProcessors,
  });
  const close = server.close.bind(server);
  // TEST_TRANSPORT=socket sends every test's calls over sockets, as before the inject harness (to compare the two).
  const transport = options.transport ?? (process.env.TEST_TRANSPORT === 'socket' ? 'socket' : 'inject');
  const request =
    transport === 'socket'
      ? ({ method, path, headers, body }: TestRequest) => fetch(`${server.url}${path}`, { method, headers, body })
      : injectedFetch(server.app, new URL(server.url).host);
  return Object.assign(server, {
    dataDir,
    request,
    get: (path: string, headers: Record<string, string> = {}) => request({ path, headers }),
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    mineBlock: async (chain: 'ethereum' | 'base') => {
      const rpcUrl = chain === 'ethereum' ? server.localChain?.rpcUrl : server.localFacilitator?.chain.rpcUrl;
      if (!rpcUrl) throw new Error(`no embedded ${chain} chain runs`);
      // viem throws anvil's JSON-RPC errors, which arrive with HTTP 200.
      await localChainClients(rpcUrl).anvil.mine({ blocks: 1 });
    },
    close: async () => {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

let shared: Promise<TestServer> | undefined;

/**
 * One server per test worker, for files whose tests neither change what others see (replay scenarios, chain blocks,
 * counted upstream calls, per-wallet limits) nor depend on a fresh store: anonymous limits out of the way, otherwise the
 * embedded default. The first such file in a worker starts it, the others reuse it; it ends with the worker's process
 * (its anvil chains follow their parent). Never close it.
 * @example beforeAll(async () => { server = await sharedTestServer(); })
 */
export function sharedTestServer(): Promise<TestServer> {
  shared ??= startTestServer({ ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' }).then(
    (server) => {
      process.once('exit', () => rmSync(server.dataDir, { recursive: true, force: true }));
      return Object.assign(server, {
        close: async () => {
          throw new Error('the shared test server is not closed by a test file: it serves the whole worker');
        },
      });
    },
  );
  return shared;
}
