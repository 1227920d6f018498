import { warmEnsNormalizer } from '../sources/ens/name-hashes.js';

/** What the warm-up did: nothing when the server closed first. */
export interface WarmUpOutcome {
  /** Whether the ENS normaliser's tables were built. */
  ensTables: boolean;
}

export interface WarmUp {
  /** Settles once the warm-up has finished, failed or been stopped; never rejects. */
  done: Promise<WarmUpOutcome>;
  /** Cancels the warm-up if it has not run yet (shutdown). */
  stop(): Promise<void>;
}

/**
 * The first request's one-time costs, paid in the background `delayMs` after the server listens, never on the start's
 * time (ready is not delayed) nor on a request's: the ENS normaliser's tables (~0.3-0.5 s of CPU that the first name
 * outside ASCII would pay). It calls no upstream. The timer does not keep the process alive; `stop` cancels it if it
 * has not run.
 * @example const warmUp = warmAfterListening({ delayMs: 500 }); cleanups.push(() => warmUp.stop())
 */
export function warmAfterListening(p: { delayMs: number }): WarmUp {
  const stopped = new AbortController();
  const outcome: WarmUpOutcome = { ensTables: false };
  let started: (() => void) | undefined;
  const timer = setTimeout(() => started?.(), p.delayMs);
  timer.unref();
  const done = (async () => {
    const go = await new Promise<boolean>((resolve) => {
      started = () => resolve(true);
      stopped.signal.addEventListener('abort', () => resolve(false), { once: true });
    });
    if (!go) return outcome;
    warmEnsNormalizer();
    outcome.ensTables = true;
    return outcome;
  })();
  return {
    done,
    async stop() {
      clearTimeout(timer);
      stopped.abort();
      await done;
    },
  };
}
