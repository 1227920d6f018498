import type { SourceTiming } from '../../src/sources/source-client.js';

/**
 * Time for a source client that the test decides: the clock its deadlines are counted on moves only by hand
 * (`pass`) or by a retry's wait, each wait is recorded and takes no real time, and the jitter is fixed. A deadline
 * still fires on a real timer, so an upstream that hangs is cut off as in production.
 * @example const timing = manualTiming(); new SourceClient({ policy, registry, ...timing.params }); timing.waits // [50]
 */
export function manualTiming(jitter = 0) {
  let elapsedMs = 0;
  const waits: number[] = [];
  const params: Required<Pick<SourceTiming, 'monotonicNow' | 'sleep' | 'random'>> = {
    monotonicNow: () => elapsedMs,
    sleep: async (ms) => {
      waits.push(ms);
      elapsedMs += ms;
    },
    random: () => jitter,
  };
  return {
    params,
    /** The backoff waits the client asked for, in order. */
    waits,
    /** Where the clock stands, in ms since it was made. */
    now: () => elapsedMs,
    /** Moves the clock on, as an upstream that took `ms` to answer would. */
    pass: (ms: number) => void (elapsedMs += ms),
  };
}
