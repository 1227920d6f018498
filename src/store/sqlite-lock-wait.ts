import { methodNames } from './store-methods.js';

/** Waits between attempts on a locked file, as SQLite's own busy handler spaces them, then every 100 ms. */
const RETRY_DELAYS_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100] as const;

/** Methods that are not store calls: they never wait for a lock. */
const NOT_WAITED = new Set<string>(['describe', 'close']);

export interface LockWaitOptions {
  /** How long one call may keep trying before its lock error is thrown (STORE_TIMEOUT_MS). */
  budgetMs: number;
  /** Whether an error means the file is locked by another connection (SQLITE_BUSY, SQLITE_LOCKED). */
  isLocked: (err: unknown) => boolean;
  /** Clock of the budget (ms); tests may pass their own. */
  now?: () => number;
  /** Waits `ms` (a timer by default); tests may pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` again, on timers, while it fails because the file is locked elsewhere, until `budgetMs` has passed;
 * then throws the last lock error. The connections answer SQLITE_BUSY at once (busy_timeout 0), so a lock held
 * elsewhere costs the event loop nothing while a call waits. `failed`: the lock error of an attempt already made.
 * @example await retryWhileLocked(() => store.putNonce(nonce), { budgetMs: 500, isLocked: isSqliteOutage })
 */
export async function retryWhileLocked<T>(attempt: () => Promise<T>, p: LockWaitOptions, failed?: unknown): Promise<T> {
  const now = p.now ?? performance.now.bind(performance);
  const sleep = p.sleep ?? timer;
  const deadline = now() + p.budgetMs;
  let tries = 0;
  let last = failed;
  for (;;) {
    if (tries > 0 || failed !== undefined) {
      const left = deadline - now();
      if (left <= 0) throw last;
      await sleep(Math.min(RETRY_DELAYS_MS[Math.min(tries, RETRY_DELAYS_MS.length - 1)]!, left));
    }
    tries += 1;
    try {
      return await attempt();
    } catch (err) {
      if (!p.isLocked(err)) throw err;
      last = err;
    }
  }
}

/**
 * The store with every call waiting for a lock on timers ({@link retryWhileLocked}) instead of in SQLite's busy
 * handler, which sleeps with the whole process. A call is tried again whole, so each must change nothing when it
 * throws a lock error (one statement, one transaction, or memory restored first: sqlite-quota-counters.ts).
 * @example const store = waitForLocksOnTimers(new SqliteStore(db, file), { budgetMs: 500, isLocked: isSqliteLock })
 */
export function waitForLocksOnTimers<S extends object>(store: S, p: LockWaitOptions): S {
  // Made once, here, not looked up on each call: every method of the store; anything else is read from the store.
  const waiting = Object.create(store) as Record<string, unknown>;
  for (const name of methodNames(store)) {
    const method = Reflect.get(store, name) as (...args: unknown[]) => Promise<unknown>;
    if (NOT_WAITED.has(name)) waiting[name] = method.bind(store);
    else if (name === 'consumeQuotaNow') waiting[name] = decidedNow(store, method, p);
    else {
      waiting[name] = (...args: unknown[]) => {
        // The first attempt runs as a plain call: a store call that finds no lock pays one promise more, no timer.
        const first = method.apply(store, args);
        return first.catch((err: unknown) => {
          if (!p.isLocked(err)) throw err;
          return retryWhileLocked(() => method.apply(store, args), p, err);
        });
      };
    }
  }
  return waiting as S;
}

/**
 * A decision made at once (Store.consumeQuotaNow) cannot wait on timers: on a locked file it is not made (the store
 * changed nothing, as for any call tried again), and the caller goes through consumeQuota, which waits.
 */
function decidedNow(store: object, decide: (...args: unknown[]) => unknown, p: LockWaitOptions) {
  return (...args: unknown[]) => {
    try {
      return decide.apply(store, args);
    } catch (err) {
      if (p.isLocked(err)) return undefined;
      throw err;
    }
  };
}
