import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { warmEnsNormalizer } from '../sources/ens/name-hashes.js';
import { type WarmedCalls, warmUpstreamClients } from './warm-upstream-clients.js';

/** What the warm-up did: nothing when the server closed first. */
export interface WarmUpOutcome {
  /** What the upstream clients' warm-up sent to its loopback server; undefined when it did not run or failed. */
  clients: WarmedCalls | undefined;
  /** Whether the ENS normaliser's tables were built. */
  ensTables: boolean;
}

export interface WarmUp {
  /** Settles once the warm-up has finished, failed or been stopped; never rejects. */
  done: Promise<WarmUpOutcome>;
  /** Cancels what has not run yet and waits for the step under way (shutdown). */
  stop(): Promise<void>;
}

/**
 * The first request's one-time costs, paid in the background `delayMs` after the server listens, never on the start's
 * time (ready is not delayed) nor on a request's: the upstream clients' first-time code (warm-upstream-clients.ts: no
 * upstream is called), then the ENS normaliser's tables (~0.5 s of CPU that the first name outside ASCII would pay).
 * Each step runs in its own turn of the event loop, so requests arriving meanwhile are served between them. The timer
 * does not keep the process alive; `stop` cancels whatever has not run.
 * @example const warmUp = warmAfterListening({ delayMs: 500, logger }); cleanups.push(() => warmUp.stop())
 */
export function warmAfterListening(p: { delayMs: number; logger: Logger }): WarmUp {
  const stopped = new AbortController();
  const outcome: WarmUpOutcome = { clients: undefined, ensTables: false };
  let started: (() => void) | undefined;
  const timer = setTimeout(() => started?.(), p.delayMs);
  timer.unref();
  const done = (async () => {
    const go = await new Promise<boolean>((resolve) => {
      started = () => resolve(true);
      stopped.signal.addEventListener('abort', () => resolve(false), { once: true });
    });
    if (!go) return outcome;
    try {
      outcome.clients = await warmUpstreamClients(stopped.signal);
    } catch (err) {
      // Only time was at stake: the first request pays it instead.
      p.logger.debug({ err }, 'warm-up of the upstream clients failed');
    }
    await nextTurn();
    if (stopped.signal.aborted) return outcome;
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
