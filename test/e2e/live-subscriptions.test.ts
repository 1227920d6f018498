import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient as createSseClient, NetworkError } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { runDemo } from '../../src/server/demo.js';
import type { BusEvent } from '../../src/store/live-event-bus.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const alice = getDevAccounts()[1]!.address;
let server: TestServer;

/** `npm run demo -- <args>` against the test server, as a person would run it. */
async function demo(...args: string[]): Promise<string> {
  let out = '';
  const code = await runDemo(args, { env: { API_URL: server.url }, write: (t) => void (out += t) });
  expect(code, out).toBe(0);
  return out;
}

const sse = (headers: Record<string, string> = {}) =>
  createSseClient({ url: `${server.url}/graphql`, retryAttempts: 0, headers });

/** Waits until `count` subscriptions are open on the server (the subscription's start has been answered). */
async function openSubscriptions(count: number): Promise<void> {
  for (let waited = 0; server.live.open() !== count; waited += 20) {
    if (waited > 10_000) throw new Error(`${server.live.open()} subscriptions open, not ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const walletEvent = (id: string, bytes = 64): BusEvent => ({
  id,
  type: 'wallet.transfer',
  timestamp: Date.now(),
  data: { from: alice, to: '0x00000000000000000000000000000000000000ff', value: '1', note: 'x'.repeat(bytes) },
});

beforeAll(async () => {
  server = await startTestServer({
    WEBHOOK_POLL_MS: '100',
    LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: '2',
    LIVE_EVENTS_PER_CALL: '1',
    LIVE_BUFFER_EVENTS: '8',
  });
});
afterAll(async () => {
  await server?.close();
});

describe('subscriptions on the embedded default, with the stock clients', () => {
  it('over SSE (graphql-sse), ensEvents receives the record change `npm run demo -- text` makes', async () => {
    const events = sse().iterate({
      query: 'subscription ($names: [String!]!) { ensEvents(names: $names) { id type timestamp data } }',
      variables: { names: ['alice.eth'] },
    });
    const first = events.next();
    await openSubscriptions(1);
    await demo('text', 'alice.eth', 'url', 'https://alice.example/live');
    const { value } = await first;
    await events.return?.();
    expect(value?.errors).toBeUndefined();
    const event = (value!.data as { ensEvents: { type: string; data: Record<string, unknown> } }).ensEvents;
    expect(event.type).toBe('ens.record_changed');
    expect(event.data).toMatchObject({ name: 'alice.eth', key: 'url', value: 'https://alice.example/live' });
    await openSubscriptions(0);
  });

  it('over WebSocket (graphql-ws), walletTransfers receives the transfer `npm run demo -- eth` sends', async () => {
    const client = createWsClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket });
    try {
      const events = client.iterate({
        query: `subscription { walletTransfers(addresses: ["${alice}"]) { id type data } }`,
      });
      const first = events.next();
      await openSubscriptions(1);
      await demo('eth', 'bob.eth', '0.02');
      const { value } = await first;
      await events.return?.();
      const event = (value!.data as { walletTransfers: { type: string; data: Record<string, unknown> } })
        .walletTransfers;
      expect(event.type).toBe('wallet.transfer');
      expect(String(event.data.from).toLowerCase()).toBe(alice.toLowerCase());
      await openSubscriptions(0);
    } finally {
      await client.dispose();
    }
  });

  it('refuses arguments a webhook filter would refuse, as 400 INVALID_PARAMETER before any event', async () => {
    const events = sse().iterate({ query: 'subscription { walletTransfers(addresses: ["0x12"]) { id } }' });
    const refused = await events.next().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(NetworkError);
    const response = (refused as NetworkError<Response>).response!;
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('INVALID_PARAMETER');
    expect(body.errors[0]!.message).toMatch(/addresses/);
  });
});

describe('GraphiQL', () => {
  it('runs a subscription: its page’s fetcher streams it over SSE', async () => {
    const page = await (await server.get('/graphql', { accept: 'text/html' })).text();
    const script = page.slice(page.indexOf('var endpoint'), page.indexOf('ReactDOM.createRoot'));
    const absolute = script.replace(
      'var endpoint = "/graphql"',
      `var endpoint = ${JSON.stringify(`${server.url}/graphql`)}`,
    );
    const fetcher = new Function('GraphiQL', `${absolute}; return fetcher;`)({
      createFetcher: () => () => null,
    }) as (params: { query: string }) => AsyncGenerator<{ data?: unknown }>;
    const results = fetcher({ query: `subscription { walletTransfers(addresses: ["${alice}"]) { id } }` });
    const first = results.next();
    await openSubscriptions(1);
    await server.live.bus.publish([walletEvent('evt_live_graphiql_1')]);
    expect((await first).value).toEqual({ data: { walletTransfers: { id: 'evt_live_graphiql_1' } } });
    await results.return(undefined);
    await openSubscriptions(0);
  });
});

describe('access', () => {
  it('a caller past its open subscriptions cap is refused with 429 RATE_LIMITED', async () => {
    const query = `subscription { walletTransfers(addresses: ["${alice}"]) { id } }`;
    const held = [sse().iterate({ query }), sse().iterate({ query })];
    const pending = held.map((events) => events.next().catch(() => undefined));
    await openSubscriptions(2);
    const refused = await sse()
      .iterate({ query })
      .next()
      .catch((err: unknown) => err);
    expect((refused as NetworkError<Response>).response?.status).toBe(429);
    const body = (await (refused as NetworkError<Response>).response!.json()) as {
      errors: { extensions: { code: string } }[];
    };
    expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');
    for (const events of held) await events.return?.();
    await Promise.all(pending);
    await openSubscriptions(0);
  });

  it('a session that ends mid-stream ends the stream with a terminal UNAUTHORIZED error', async () => {
    const session = await signIn(server);
    const events = sse(bearer(session.token)).iterate({
      query: `subscription { walletTransfers(addresses: ["${alice}"]) { id } }`,
    });
    const first = events.next();
    await openSubscriptions(1);
    expect((await server.post('/api/auth/siwe/logout', {}, bearer(session.token))).status).toBe(200);
    await server.live.bus.publish([walletEvent('evt_live_session_1')]);
    expect((await first).value?.data).toEqual({ walletTransfers: { id: 'evt_live_session_1' } });
    // The event was its counted call's last: the next count is refused, and the stream ends with the refusal.
    const terminal = await events.next();
    expect(terminal.value?.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect((await events.next()).done).toBe(true);
    await openSubscriptions(0);
  });
});

describe('a caller whose daily quota runs out mid-stream', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '2', LIVE_EVENTS_PER_CALL: '1' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('gets its events while counted calls remain, then one terminal error with the refusal’s code, then the end', async () => {
    const events = createSseClient({ url: `${limited.url}/graphql`, retryAttempts: 0 }).iterate({
      query: `subscription { walletTransfers(addresses: ["${alice}"]) { id } }`,
    });
    const first = events.next();
    for (let waited = 0; limited.live.open() !== 1; waited += 20) {
      if (waited > 10_000) throw new Error('the subscription did not open');
      await new Promise((r) => setTimeout(r, 20));
    }
    // Call 1 was the start; each event counts one more: the second event's count is the third call of a day of two,
    // refused as the quota's 429 (a later count is never offered for x402: the payment paid for the start).
    await limited.live.bus.publish([walletEvent('evt_live_quota_1'), walletEvent('evt_live_quota_2')]);
    expect((await first).value?.data).toEqual({ walletTransfers: { id: 'evt_live_quota_1' } });
    expect((await events.next()).value?.data).toEqual({ walletTransfers: { id: 'evt_live_quota_2' } });
    const terminal = await events.next();
    expect(terminal.value?.errors).toHaveLength(1);
    expect(terminal.value?.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect((await events.next()).done).toBe(true);
  });
});

describe('bounds', () => {
  it('a consumer that never reads is dropped once its buffer is full, and the heap does not grow with the events', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // A raw SSE request whose reader never reads: the server's writes back up, then its buffer fills.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    const body = JSON.stringify({ query: `subscription { walletTransfers(addresses: ["${alice}"]) { id data } }` });
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.pause();
    await openSubscriptions(1);
    gc();
    const before = process.memoryUsage().heapUsed;
    // 4,000 events of 16 KiB: 64 MiB that a buffer without a bound would hold.
    for (let i = 0; i < 4000; i += 100) {
      await server.live.bus.publish(
        Array.from({ length: 100 }, (_, k) => walletEvent(`evt_live_slow_${i + k}`, 16 * 1024)),
      );
      await new Promise((r) => setImmediate(r));
    }
    await openSubscriptions(0);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    socket.destroy();
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });
});
