import { createClient } from 'graphql-sse';
import type { Example } from '../example.js';

/** alice, the embedded default's first demo account (`npm run demo -- accounts`). */
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface LiveEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A frontend's live data: two GraphQL subscriptions over SSE on /graphql (the stock graphql-sse client), alice.eth's
 * record changes and alice's transfers. Prints the first event of each, as `npm run demo -- text` and
 * `npm run demo -- eth` cause them, then ends both.
 * Run: npm run example -- live/subscribe-events
 */
export default async function subscribeEvents({ api, print }: Example): Promise<void> {
  // 1. One client for the API; each subscription is its own SSE response (graphql-sse's distinct connections mode).
  const client = createClient({ url: `${api}/graphql`, retryAttempts: 0 });

  // 2. Subscribe; `connected` says the server has answered, so what happens from then on arrives.
  let open = 0;
  let bothOpen: () => void = () => {};
  const connected = new Promise<void>((resolve) => (bothOpen = resolve));
  const on = { connected: () => (++open === 2 ? bothOpen() : undefined) };
  const names = client.iterate<{ ensEvents: LiveEvent }>(
    { query: 'subscription { ensEvents(names: ["alice.eth"]) { id type timestamp data } }' },
    on,
  );
  const transfers = client.iterate<{ walletTransfers: LiveEvent }>(
    { query: `subscription { walletTransfers(addresses: ["${ALICE}"]) { id type timestamp data } }` },
    on,
  );
  const firstName = names.next();
  const firstTransfer = transfers.next();
  await connected;
  print('subscribed: run `npm run demo -- text` and `npm run demo -- eth` in another terminal');

  // 3. Each result is `{ data }` (or `{ errors }` when the stream ends on a refusal): print the event.
  try {
    const record = (await firstName).value?.data?.ensEvents;
    print(`${record?.type}: ${record?.data.name} ${record?.data.key} = ${JSON.stringify(record?.data.value)}`);
    const transfer = (await firstTransfer).value?.data?.walletTransfers;
    print(`${transfer?.type}: ${transfer?.data.value} wei of ${transfer?.data.asset} from ${transfer?.data.from}`);
  } finally {
    // 4. Ending the iteration closes its SSE response; the server counts no more for it.
    await names.return?.();
    await transfers.return?.();
  }
}
