import { isApiError, serviceUnavailable } from '../errors/api-error.js';
import { observedStoreCall, type StoreCallTallies } from '../observability/store-call-tallies.js';
import type { KeyCallAdmission, QuotaCounter, QuotaDecision, Store } from './store.js';

type StoreCall = (...args: unknown[]) => Promise<unknown>;

/**
 * Rejects with `onTimeout()` when `promise` has not settled within `ms`, and then hands its late outcome to `onLate`.
 * The rejection waits one turn for I/O (setImmediate runs after the poll phase): after the event loop was busy longer
 * than `ms`, a reply that arrived meanwhile still wins over the timer that expired with it.
 */
function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  onLate: (value: T) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let check: NodeJS.Immediate | undefined;
  let timedOut = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      check = setImmediate(() => {
        timedOut = true;
        reject(onTimeout());
      });
    }, ms);
  });
  promise.then(
    (value) => {
      if (timedOut) onLate(value);
    },
    () => {},
  );
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    if (check) clearImmediate(check);
  });
}

/**
 * What a call that ran after its caller was answered 503 leaves behind, undone, so that only what was answered counts:
 * a counted call's counts go back, a concurrency slot is freed. (A credit debit in flight stays: README "Store".)
 */
const UNDO_LATE: Partial<Record<keyof Store, (store: Store, args: unknown[], result: unknown) => Promise<unknown>>> = {
  consumeQuota: (store, args, result) => {
    const { counters, now } = args[0] as { counters: QuotaCounter[]; now: number };
    return (result as QuotaDecision).admitted ? store.refundQuota({ counters, now }) : Promise.resolve();
  },
  acquireSlot: (store, args, token) => {
    const { key } = args[0] as { key: string };
    return typeof token === 'string' ? store.releaseSlot({ key, token }) : Promise.resolve();
  },
  admitKeyCall: (store, args, result) => {
    const { slotKey, counters, now } = args[0] as { slotKey: string; counters: QuotaCounter[]; now: number };
    const { token, quota } = result as KeyCallAdmission;
    return Promise.all([
      token === null ? undefined : store.releaseSlot({ key: slotKey, token }),
      quota?.admitted ? store.refundQuota({ counters, now }) : undefined,
    ]);
  },
};

/**
 * The store as the rest of the service sees it: a backend that fails (Redis down, SQLite locked elsewhere) is a 503
 * SERVICE_UNAVAILABLE, never a 500; with `deadlineMs`, so is a call that has not settled by then (a hung Redis
 * answers nothing at all). Once a call missed its deadline, the backend is late: until a ping it was sent then comes
 * back, calls are answered 503 at once and nothing more is sent, so that a backend waking up runs only the commands
 * that were in flight; what those counted is undone ({@link UNDO_LATE}). SQLite needs no deadline: a call on a locked
 * file gives up by itself after the budget (sqlite-lock-wait.ts), and one on a free file runs to completion before it
 * returns.
 * @example const store = withStoreBudget(redisStore, { isOutage: isRedisOutage, deadlineMs: config.storeTimeoutMs })
 */
export function withStoreBudget(
  store: Store,
  p: {
    /** Whether an error is the backend failing (rather than a refused argument or a bug). */
    isOutage: (err: unknown) => boolean;
    deadlineMs?: number;
    /** Each call's latency and outcome, for /metrics (src/observability/store-call-tallies.ts). */
    calls?: StoreCallTallies;
  },
): Store {
  const kind = store.describe().kind;
  const lateErrors = new WeakSet<object>();
  const late = () => {
    const err = serviceUnavailable(`the ${kind} store did not answer within ${p.deadlineMs} ms; try again shortly`);
    lateErrors.add(err);
    return err;
  };
  const outcome = (err: unknown) =>
    lateErrors.has(err as object) ? 'timeout' : isApiError(err) && err.status === 503 ? 'unavailable' : 'error';
  const rethrow = (err: unknown): never => {
    throw p.isOutage(err) ? serviceUnavailable(`the ${kind} store is unavailable; try again shortly`) : err;
  };
  /** Set while the backend is late: the ping that ends it. */
  let waking: Promise<void> | undefined;
  const wake = () => {
    waking ??= store
      .ping()
      .catch(() => {})
      .finally(() => {
        waking = undefined;
      });
  };
  const calls = new Map<PropertyKey, StoreCall>();
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name);
      if (typeof value !== 'function' || name === 'describe' || name === 'close') return value;
      let call = calls.get(name);
      if (!call) {
        const method = value as StoreCall;
        const undo = UNDO_LATE[name as keyof Store];
        call = (...args) => {
          if (p.deadlineMs === undefined) return method.apply(target, args).catch(rethrow);
          if (waking) return Promise.reject(late());
          const settled = method.apply(target, args).catch(rethrow);
          return withDeadline(
            settled,
            p.deadlineMs,
            () => {
              wake();
              return late();
            },
            (result) => {
              undo?.(target, args, result).catch(() => {});
            },
          );
        };
        if (p.calls) call = observedStoreCall(call, { tallies: p.calls, system: kind, call: String(name), outcome });
        calls.set(name, call);
      }
      return call;
    },
  });
}
