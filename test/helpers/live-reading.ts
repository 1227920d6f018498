import { expect } from 'vitest';

/** One event as a subscription field delivers it. */
export interface DeliveredEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** A subscription read in the background: each event it got, any error, and whether it ended. */
export interface LiveReading {
  got: DeliveredEvent[];
  errors: unknown[];
  /** Resolves once the stream ended (completed, or failed into `errors`). */
  ended: Promise<void>;
  stop(): Promise<unknown>;
}

/**
 * Reads a subscription of one field (graphql-sse's or graphql-ws's `iterate`) in the background.
 * @example const stream = reading(client.iterate({ query: 'subscription { ensEvents(names: ["alice.eth"]) { id type data } }' }))
 */
export function reading(
  events: AsyncIterableIterator<{ data?: Record<string, unknown> | null; errors?: readonly unknown[] }>,
): LiveReading {
  const got: DeliveredEvent[] = [];
  const errors: unknown[] = [];
  const ended = (async () => {
    for await (const result of events) {
      if (result.errors) errors.push(...result.errors);
      else got.push(Object.values(result.data!)[0] as DeliveredEvent);
    }
  })().catch((err: unknown) => void errors.push(err));
  return { got, errors, ended, stop: async () => events.return?.() };
}

/** Whether `test` holds within `ms`, checked every 50 ms. */
export async function within(ms: number, test: () => boolean): Promise<boolean> {
  for (const start = Date.now(); !test(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - start > ms) return false;
  }
  return true;
}

/**
 * Causes events until the stream gets one (a stream opened behind a router, or on another process, gives no sign of
 * when its subgraph starts watching, so the first may come too early), then one more: that one's mark (what `markOf`
 * reads of its event), once its event arrived and a duplicate had time to follow.
 * @example const last = await causeUntilDelivered(stream, sendTransfer, (e) => e.data.transactionHash)
 */
export async function causeUntilDelivered(
  stream: LiveReading,
  cause: () => Promise<unknown>,
  markOf: (event: DeliveredEvent) => unknown,
): Promise<unknown> {
  for (let tries = 0; stream.got.length === 0; tries += 1) {
    expect(tries, `no event after ${tries} tries: ${JSON.stringify(stream.errors)}`).toBeLessThan(10);
    await cause();
    await within(3_000, () => stream.got.length > 0);
  }
  const last = await cause();
  expect(await within(20_000, () => stream.got.some((e) => markOf(e) === last))).toBe(true);
  await new Promise((r) => setTimeout(r, 1_500));
  return last;
}
