import { serviceUnavailable } from '../errors/api-error.js';
import type { Store } from './store.js';

type StoreCall = (...args: unknown[]) => Promise<unknown>;

/**
 * Rejects with `onTimeout()` when `promise` has not settled within `ms`. The rejection waits one turn for I/O
 * (setImmediate runs after the poll phase): after the event loop was busy longer than `ms`, a reply that arrived
 * meanwhile still wins over the timer that expired with it.
 */
function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let check: NodeJS.Immediate | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      check = setImmediate(() => reject(onTimeout()));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    if (check) clearImmediate(check);
  });
}

/**
 * The store as the rest of the service sees it: a backend that fails (Redis down, SQLite locked elsewhere) is a 503
 * SERVICE_UNAVAILABLE, never a 500; with `deadlineMs`, so is a call that has not settled by then (a hung Redis
 * answers nothing at all). SQLite needs no deadline: a call on a locked file gives up by itself after the budget
 * (sqlite-lock-wait.ts), and one on a free file runs to completion before it returns.
 * @example const store = withStoreBudget(redisStore, { isOutage: isRedisOutage, deadlineMs: config.storeTimeoutMs })
 */
export function withStoreBudget(
  store: Store,
  p: {
    /** Whether an error is the backend failing (rather than a refused argument or a bug). */
    isOutage: (err: unknown) => boolean;
    deadlineMs?: number;
  },
): Store {
  const kind = store.describe().kind;
  const late = () =>
    serviceUnavailable(`the ${kind} store did not answer within ${p.deadlineMs} ms; try again shortly`);
  const rethrow = (err: unknown): never => {
    throw p.isOutage(err) ? serviceUnavailable(`the ${kind} store is unavailable; try again shortly`) : err;
  };
  const calls = new Map<PropertyKey, StoreCall>();
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name);
      if (typeof value !== 'function' || name === 'describe' || name === 'close') return value;
      let call = calls.get(name);
      if (!call) {
        const method = value as StoreCall;
        call = (...args) => {
          const settled = method.apply(target, args).catch(rethrow);
          return p.deadlineMs === undefined ? settled : withDeadline(settled, p.deadlineMs, late);
        };
        calls.set(name, call);
      }
      return call;
    },
  });
}
