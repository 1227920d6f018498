import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  /** performance.timeOrigin-based wall time of arrival, ms. */
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status each next request is answered with (shifted off), then `fallbackStatus`. */
  statuses: number[];
  fallbackStatus: number;
  /** Resolves once `count` deliveries matching `where` arrived (rejects after `timeoutMs`). */
  waitFor(where: (d: ReceivedDelivery) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** A local HTTP endpoint that records every webhook POST and answers with the statuses the test sets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const receiver = {
    received,
    statuses: [] as number[],
    fallbackStatus: 200,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = receiver.statuses.shift() ?? receiver.fallbackStatus;
      received.push({ headers: req.headers, body, json: JSON.parse(body), receivedAt: Date.now() });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      for (const wake of waiters) wake();
    });
  });
  // The delivering client closes idle connections: a server-side close races its reuse of one (ECONNRESET).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    waitFor(where: (d: ReceivedDelivery) => boolean, count = 1, timeoutMs = 60_000) {
      return new Promise<ReceivedDelivery[]>((resolve, reject) => {
        const check = () => {
          const found = received.filter(where);
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited ${timeoutMs} ms for ${count} deliveries; got ${received.filter(where).length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/**
 * Verifies a delivery both ways a receiver may: the standardwebhooks library, and a plain HMAC of the raw body. The
 * library takes `whsec_` secrets as generated; a caller's own secret is given to it base64-encoded
 * (docs/webhooks.md#delivery-and-signatures).
 */
export function verifyDelivery(delivery: ReceivedDelivery, secret: string): void {
  const standardSecret = secret.startsWith('whsec_') ? secret : Buffer.from(secret).toString('base64');
  new Webhook(standardSecret).verify(delivery.body, {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  });
  const expected = createHmac('sha256', secret).update(delivery.body).digest('hex');
  if (delivery.headers['x-webhook-signature'] !== expected) throw new Error('x-webhook-signature does not match');
}
