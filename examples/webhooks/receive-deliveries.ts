import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signInWithEthereum } from '../auth/sign-in.js';
import { type Example, json } from '../example.js';

interface Delivery {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A webhook receiver: subscribes to alice.eth's record changes, checks each delivery's signatures and prints it.
 * First a test ping, then a real chain event: run `npm run demo -- text` while it waits.
 * Run: npm run example -- webhooks/receive-deliveries
 */
export default async function receiveDeliveries({ api, print }: Example): Promise<void> {
  const arrived: { body: string; headers: IncomingHttpHeaders }[] = [];
  let wake: () => void = () => {};
  // 1. Any HTTP endpoint that answers 2xx within 10 s. The embedded default also accepts http and loopback URLs.
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrived.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
      wake();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    // 2. A webhook belongs to a wallet: sign in, subscribe.
    const session = await signInWithEthereum(api, privateKeyToAccount(generatePrivateKey()));
    const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
    const webhook = await json<{ id: string; secret: string }>(
      await fetch(`${api}/api/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url, events: ['ens.record_changed'], filters: { names: ['alice.eth'] } }),
      }),
    );
    print(`webhook ${webhook.id} sends ens.record_changed of alice.eth to ${url}`);

    // 3. Every delivery is signed twice: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) and an
    //    HMAC-SHA-256 hex of the body keyed with the secret (x-webhook-signature). Check either before trusting it.
    const verifier = new Webhook(webhook.secret);
    const next = async (): Promise<Delivery> => {
      while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const { body, headers: received } = arrived.shift()!;
      const delivery = verifier.verify(body, received as Record<string, string>) as Delivery;
      const hmac = createHmac('sha256', webhook.secret).update(body).digest('hex');
      if (hmac !== received['x-webhook-signature']) throw new Error('x-webhook-signature does not match');
      return delivery;
    };

    // 4. A test ping, at once.
    await json(await fetch(`${api}/api/webhooks/${webhook.id}/test`, { method: 'POST', headers }));
    const ping = await next();
    print(`verified ${ping.type} ${ping.id}`);

    // 5. A chain event: a text record of alice.eth changes.
    print('waiting for a chain event: run `npm run demo -- text` in another terminal');
    const event = await next();
    print(`verified ${event.type}: ${event.data.name} ${event.data.key} = ${JSON.stringify(event.data.value)}`);
    await fetch(`${api}/api/webhooks/${webhook.id}`, { method: 'DELETE', headers });
  } finally {
    receiver.close();
  }
}
