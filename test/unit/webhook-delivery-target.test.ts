import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedDelivery, DeliveryAttempt } from '../../src/store/webhook-store.js';
import { DEFAULT_DELIVERY_POLICY, startDeliveryWorker } from '../../src/webhooks/delivery-worker.js';

/** A public address (example.org's): what a rebinding name answers first, to pass a check. */
const PUBLIC = '93.184.215.14';

/** Resolver answers per name, in order; the last one repeats (a name with TTL 0 answering as its owner wants). */
const answers = new Map<string, string[]>();
const lookups: string[] = [];
const answerFor = (host: string): string | undefined => {
  const queue = answers.get(host);
  if (!queue) return undefined;
  lookups.push(host);
  return queue.length > 1 ? queue.shift()! : queue[0]!;
};

/** Delivers one claim to `url` through the worker (public targets only) and returns what the attempt recorded. */
async function deliverOnce(url: string): Promise<DeliveryAttempt> {
  let claimed = false;
  let finished: ((attempt: DeliveryAttempt) => void) | undefined;
  const done = new Promise<DeliveryAttempt>((resolve) => (finished = resolve));
  const claim: ClaimedDelivery = {
    delivery: {
      id: 'd1',
      webhookId: 'w1',
      wallet: `0x${'ab'.repeat(20)}`,
      eventId: 'e1',
      eventType: 'ens.transfer',
      payload: '{}',
      status: 'pending',
      attempts: 0,
      createdAt: Date.now(),
      nextAttemptAt: null,
      lastAttemptAt: null,
      deliveredAt: null,
      responseCode: null,
      latencyMs: null,
      error: null,
    },
    lease: 'lease-1',
    url,
    secret: `whsec_${Buffer.alloc(24).toString('base64')}`,
  };
  const store = {
    claimDeliveries: async () => {
      if (claimed) return [];
      claimed = true;
      return [claim];
    },
    finishDelivery: async (p: { attempt: DeliveryAttempt }) => {
      finished!(p.attempt);
      return true;
    },
  };
  const logger = { debug() {}, warn() {} };
  const worker = startDeliveryWorker({
    store: store as never,
    logger: logger as never,
    // A short attempt timeout bounds the test where the pinned address does not answer; nothing asserts on time.
    policy: { ...DEFAULT_DELIVERY_POLICY, timeoutMs: 1500, pollMs: 60_000, retryBaseMs: 60_000, allowLocalUrls: false },
  });
  try {
    return await done;
  } finally {
    await worker.stop();
  }
}

describe('webhook deliveries connect to the address they checked (DNS rebinding)', () => {
  let inside: Server;
  let port: number;
  const reached: string[] = [];
  const realLookup = dns.lookup;
  const realPromiseLookup = dns.promises.lookup;
  beforeAll(async () => {
    inside = createServer((socket) => {
      reached.push(`${socket.localAddress}:${socket.localPort}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    port = (inside.address() as { port: number }).port;
    // The system resolver, as every lookup in this process sees it, with the names of this test answered here.
    (dns as { lookup: unknown }).lookup = (host: string, options: unknown, callback?: unknown) => {
      const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
      const all = typeof options === 'object' && (options as { all?: boolean }).all;
      const address = answerFor(host);
      if (address === undefined) return (realLookup as (...args: unknown[]) => void)(host, options, callback);
      const found: LookupAddress = { address, family: address.includes(':') ? 6 : 4 };
      process.nextTick(() => (all ? cb(null, [found]) : cb(null, found.address, found.family)));
    };
    (dns.promises as { lookup: unknown }).lookup = async (host: string, options?: { all?: boolean }) => {
      const address = answerFor(host);
      if (address === undefined) return realPromiseLookup(host, options as never);
      const found = { address, family: address.includes(':') ? 6 : 4 };
      return options?.all ? [found] : found;
    };
    syncBuiltinESMExports();
  });
  afterAll(async () => {
    dns.lookup = realLookup;
    dns.promises.lookup = realPromiseLookup;
    syncBuiltinESMExports();
    await new Promise((resolve) => inside.close(resolve));
  });

  it('a name that answers a public address and then 127.0.0.1 is resolved once: nothing reaches 127.0.0.1', async () => {
    answers.set('rebind.example.org', [PUBLIC, '127.0.0.1']);
    lookups.length = 0;
    const attempt = await deliverOnce(`https://rebind.example.org:${port}/hook`);
    console.log('rebinding name:', { lookups: lookups.length, reachedInside: reached, error: attempt.error });
    expect(reached).toEqual([]);
    expect(attempt.ok).toBe(false);
    // Whatever became of the connection to the public address, the owner learns nothing about sockets.
    expect(attempt.error).not.toMatch(/\bE[A-Z]{3,}\b|127\.0\.0\.1|socket|TLS/);
  });

  it('a name that answers 127.0.0.1 when the connection is made is refused, and the owner is told why, not how', async () => {
    answers.set('inside.example.org', ['127.0.0.1']);
    const attempt = await deliverOnce(`https://inside.example.org:${port}/hook`);
    expect(reached).toEqual([]);
    expect(attempt).toMatchObject({
      ok: false,
      responseCode: null,
      error: 'inside.example.org resolves to a private, loopback or link-local address',
    });
  });
});
