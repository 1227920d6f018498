import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../src/store/live-event-bus.js';
import { LIVE_SECRETS } from '../helpers/live-secrets.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ALICE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const METRICS_TOKEN = 'live-reconnect-metrics-token-0123';
const QUERY = `subscription { walletTransfers(addresses: ["${ALICE}"]) { id type } }`;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const transfer = (id: string, to = ALICE): BusEvent => ({
  id,
  type: 'wallet.transfer',
  timestamp: Date.now(),
  data: { from: '0x0000000000000000000000000000000000000001', to, value: '1' },
});

interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * A subscription as a browser's EventSource opens it, with no library: `GET /graphql?query=…` accepting
 * `text/event-stream`, and on a reconnect the `Last-Event-ID` header with the last `id:` it read.
 */
function eventSource(url: string, lastEventId?: string) {
  const messages: SseMessage[] = [];
  const control = new AbortController();
  const opened = fetch(`${url}/graphql?query=${encodeURIComponent(QUERY)}`, {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: control.signal,
  });
  const reading = (async () => {
    const res = await opened;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        end = text.indexOf('\n\n');
        const message: SseMessage = { event: '', data: '' };
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon <= 0) continue;
          const value = line.slice(colon + 1).replace(/^ /, '');
          const field = line.slice(0, colon);
          if (field === 'id') message.id = value;
          else if (field === 'event') message.event = value;
          else if (field === 'data') message.data += value;
        }
        if (message.event) messages.push(message);
      }
    }
  })().catch((err: unknown) => {
    if (!control.signal.aborted) throw err;
  });
  const events = () =>
    messages
      .filter((m) => m.event === 'next')
      .map((m) => ({ id: m.id, eventId: JSON.parse(m.data).data.walletTransfers.id as string }));
  return { messages, events, close: () => control.abort(), reading };
}

async function until(test: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !test(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function scrape(server: TestServer) {
  const res = await server.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
}

describe('an SSE client that reconnects with Last-Event-ID gets what it missed, exactly once', () => {
  it('on the embedded default: each next message has an id; the events published while it was away arrive once, then the live ones', async () => {
    const server = await startTestServer({ METRICS_TOKEN, LIVE_REPLAY_SECONDS: '60' });
    cleanups.push(() => server.close());
    const first = eventSource(server.url);
    await until(() => server.live.open() === 1, 'the subscription');
    await server.live.bus.publish([
      transfer('evt_rc_1'),
      transfer('evt_rc_other', '0x00000000000000000000000000000000000000ff'),
    ]);
    await until(() => first.events().length === 1, 'the first event');
    const [seen] = first.events();
    expect(seen!.eventId).toBe('evt_rc_1');
    expect(seen!.id).toMatch(/^\d+-\d+$/);

    // /metrics: one SSE subscription open, one event handed to it.
    const open = await scrape(server);
    expect(sampleValue(open, 'live_subscriptions_open', { transport: 'sse' })).toBe(1);
    expect(sampleValue(open, 'live_subscriptions_open', { transport: 'websocket' })).toBe(0);
    expect(sampleValue(open, 'live_events_delivered_total', { transport: 'sse' })).toBe(1);

    // The connection drops; two events for ALICE happen while the client is away.
    first.close();
    await first.reading;
    await until(() => server.live.open() === 0, 'the dropped subscription to end');
    await server.live.bus.publish([transfer('evt_rc_2'), transfer('evt_rc_3')]);

    const resumed = eventSource(server.url, seen!.id);
    await until(() => resumed.events().length === 2, 'the missed events');
    // Published again (another detection of the same facts) and one new: the new one only.
    await server.live.bus.publish([transfer('evt_rc_3'), transfer('evt_rc_1'), transfer('evt_rc_4')]);
    await until(() => resumed.events().length === 3, 'the live event after the missed ones');
    await new Promise((r) => setTimeout(r, 300));
    const events = resumed.events();
    expect(events.map((e) => e.eventId)).toEqual(['evt_rc_2', 'evt_rc_3', 'evt_rc_4']);
    // Every event's message carries an id, later than the one resumed after, in order.
    const ids = events.map((e) => e.id!.split('-').map(Number) as [number, number]);
    const order = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
    expect([...ids].sort(order)).toEqual(ids);
    expect(order(ids[0]!, seen!.id!.split('-').map(Number) as [number, number])).toBeGreaterThan(0);

    // The stock graphql-sse client reads the same stream (it skips the id lines).
    const stock = createSseClient({ url: `${server.url}/graphql`, retryAttempts: 0 }).iterate({ query: QUERY });
    const next = stock.next();
    await until(() => server.live.open() === 2, 'the stock client’s subscription');
    await server.live.bus.publish([transfer('evt_rc_5')]);
    expect((await next).value?.data).toEqual({ walletTransfers: { id: 'evt_rc_5', type: 'wallet.transfer' } });
    await stock.return?.();
    resumed.close();
    await resumed.reading;
  });

  it('with two instances on one Redis: a client that reconnects to the other instance gets the missed events once', async () => {
    const prefix = testKeyPrefix('live-reconnect');
    cleanups.push(() => deleteKeysUnder(TEST_REDIS_URL, prefix));
    const shared = { REDIS_URL: TEST_REDIS_URL, ...LIVE_SECRETS };
    const a = await startTestServer(shared, { storePrefix: prefix });
    cleanups.push(() => a.close());
    const b = await startTestServer(
      { ...shared, ETH_RPC_URL: a.localChain!.rpcUrl, WEBHOOK_CONFIRMATIONS: '0' },
      { storePrefix: prefix },
    );
    cleanups.push(() => b.close());

    const onA = eventSource(a.url);
    await until(() => a.live.open() === 1, 'the subscription on A');
    await a.live.bus.publish([transfer('evt_rx_1')]);
    await until(() => onA.events().length === 1, 'the first event on A');
    const lastId = onA.events()[0]!.id!;
    onA.close();
    await onA.reading;

    // While the client is away: events published by either instance.
    await a.live.bus.publish([transfer('evt_rx_2')]);
    await b.live.bus.publish([transfer('evt_rx_3'), transfer('evt_rx_2')]);

    const onB = eventSource(b.url, lastId);
    await until(() => onB.events().length === 2, 'the missed events on B');
    await a.live.bus.publish([transfer('evt_rx_4'), transfer('evt_rx_3')]);
    await until(() => onB.events().length === 3, 'the live event on B');
    await new Promise((r) => setTimeout(r, 500));
    expect(onB.events().map((e) => e.eventId)).toEqual(['evt_rx_2', 'evt_rx_3', 'evt_rx_4']);
    onB.close();
    await onB.reading;
  });
});
