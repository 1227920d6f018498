import { countInto, DurationTally } from './duration-tally.js';
import { traceStoreCall } from './span-hooks.js';
import { tracingEnabled } from './tracer.js';

/**
 * How a store call ended: `timeout` past STORE_TIMEOUT_MS (or refused at once while the backend is late),
 * `unavailable` the backend failed, `error` refused for another reason (a bad argument, a bug).
 */
export type StoreCallOutcome = 'ok' | 'error' | 'unavailable' | 'timeout';

/** One store method's latency and outcomes. */
export class StoreCallTally {
  readonly duration = new DurationTally();
  readonly outcomes = new Map<StoreCallOutcome, number>();

  record(outcome: StoreCallOutcome, seconds: number): void {
    this.duration.record(seconds);
    countInto(this.outcomes, outcome);
  }
}

/** Every store method's tally, by method name (the Store interface's: a fixed set). */
export class StoreCallTallies {
  private readonly byCall = new Map<string, StoreCallTally>();

  of(call: string): StoreCallTally {
    let tally = this.byCall.get(call);
    if (!tally) {
      tally = new StoreCallTally();
      this.byCall.set(call, tally);
    }
    return tally;
  }

  entries(): IterableIterator<[string, StoreCallTally]> {
    return this.byCall.entries();
  }
}

type StoreCall = (...args: unknown[]) => Promise<unknown>;

/**
 * `call` timed into its method's tally and, with tracing on, run in a `store <method>` span; built once per method.
 * @example calls.set(name, observedStoreCall(call, { tallies, system: 'redis', call: 'consumeQuota', outcome }))
 */
export function observedStoreCall(
  call: StoreCall,
  p: { tallies: StoreCallTallies; system: string; call: string; outcome: (err: unknown) => StoreCallOutcome },
): StoreCall {
  // Taken on the first call: a method never called has no tally (and no series on /metrics).
  let tally: StoreCallTally | undefined;
  const timed = (args: unknown[]) => {
    const started = performance.now();
    return call(...args).then(
      (value) => {
        (tally ??= p.tallies.of(p.call)).record('ok', (performance.now() - started) / 1000);
        return value;
      },
      (err: unknown) => {
        (tally ??= p.tallies.of(p.call)).record(p.outcome(err), (performance.now() - started) / 1000);
        throw err;
      },
    );
  };
  return (...args) => (tracingEnabled() ? traceStoreCall(p.system, p.call, () => timed(args)) : timed(args));
}
