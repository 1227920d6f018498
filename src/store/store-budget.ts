import { isApiError, serviceUnavailable } from '../errors/api-error.js';
import {
  observedStoreCall,
  type StoreCallOutcome,
  type StoreCallTallies,
  type StoreCallTally,
} from '../observability/store-call-tallies.js';
import { tracingEnabled } from '../observability/tracer.js';
import {
  type CreditDebit,
  DEBIT_RECEIPT_TTL_MS,
  type DebitRefund,
  type DebitResult,
  type KeyCallAdmission,
  type KeyCallParams,
  type QuotaCounter,
  type QuotaDecision,
  type Store,
} from './store.js';
import { methodNames } from './store-methods.js';
import { createUndoLater, type UndoLater } from './undo-later.js';

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
 * a counted call's counts go back, a concurrency slot is freed, a named credit debit is given back.
 */
const UNDO_LATE: Partial<Record<keyof Store, (store: Store, args: unknown[], result: unknown) => Promise<unknown>>> = {
  debitCredit: (store, args, result) => {
    const debit = args[0] as CreditDebit;
    return (result as DebitResult).ok && debit.id !== undefined
      ? store.refundDebit({ keyId: debit.keyId, id: debit.id, count: debit.count, now: debit.now })
      : Promise.resolve();
  },
  consumeQuota: (store, args, result) => {
    const { counters, now } = args[0] as { counters: QuotaCounter[]; now: number };
    return (result as QuotaDecision).admitted ? store.refundQuota({ counters, now }) : Promise.resolve();
  },
  acquireSlot: (store, args, token) => {
    const { key } = args[0] as { key: string };
    return typeof token === 'string' ? store.releaseSlot({ key, token }) : Promise.resolve();
  },
  admitKeyCall: (store, args, result) => {
    const { slotKey, counters, now } = args[0] as KeyCallParams;
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
    /** Where undo work waits for the store to answer again (default: one of its own). */
    undo?: UndoLater;
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
  /** What a failed store call is answered with: an outage is a 503, anything else itself. */
  const refusalOf = (err: unknown): unknown =>
    p.isOutage(err) ? serviceUnavailable(`the ${kind} store is unavailable; try again shortly`) : err;
  const rethrow = (err: unknown): never => {
    throw refusalOf(err);
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
  const undo = p.undo ?? createUndoLater({ giveUpMs: DEBIT_RECEIPT_TTL_MS, maxPending: 10_000 });
  /**
   * A named debit answered by an outage may have run (its reply was lost, as when a master dies): it is given back
   * once the store answers again, if it ran. A debit still in flight is looked for once more a moment later.
   */
  const undoUnknownDebit = (debit: CreditDebit) => {
    if (debit.id === undefined) return;
    const refund = { keyId: debit.keyId, id: debit.id, count: debit.count, now: debit.now };
    undo.add(async () => {
      if (await store.refundDebit(refund)) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(2 * (p.deadlineMs ?? 0), 1_000)).unref());
      await store.refundDebit(refund);
    });
  };
  /** Each method of the backend, wrapped once: the budget, then the timing into its tally. */
  const wrap = (name: string, method: StoreCall): StoreCall => {
    const undoLate = UNDO_LATE[name as keyof Store];
    // A debit or a refund the outage answered is finished later: a refund gives back once, so it can be retried.
    const fail =
      name === 'debitCredit' || name === 'refundDebit'
        ? (args: unknown[]) => (err: unknown) => {
            if (!p.isOutage(err)) return rethrow(err);
            if (name === 'debitCredit') undoUnknownDebit(args[0] as CreditDebit);
            else undo.add(() => store.refundDebit(args[0] as DebitRefund));
            return rethrow(err);
          }
        : () => rethrow;
    let call: StoreCall = (...args) => {
      if (p.deadlineMs === undefined) return method.apply(store, args).catch(fail(args));
      if (waking) return Promise.reject(late());
      const settled = method.apply(store, args).catch(fail(args));
      return withDeadline(
        settled,
        p.deadlineMs,
        () => {
          wake();
          return late();
        },
        (result) => {
          if (!undoLate) return;
          // A refund by receipt can be tried until it lands (it gives back once); the others are tried once.
          if (name === 'debitCredit') undo.add(() => undoLate(store, args, result));
          else undoLate(store, args, result).catch(() => {});
        },
      );
    };
    if (p.calls) call = observedStoreCall(call, { tallies: p.calls, system: kind, call: name, outcome });
    return call;
  };
  // Made once, here, not looked up on each call: every method of the backend (its class's, and its own); anything
  // else is read from the backend itself.
  const budgeted = Object.create(store) as Record<string, unknown>;
  for (const name of methodNames(store)) {
    if (name === 'consumeQuotaNow') continue;
    const value = Reflect.get(store, name) as StoreCall;
    budgeted[name] = name === 'describe' || name === 'close' ? value.bind(store) : wrap(name, value);
  }
  const decideNow = store.consumeQuotaNow;
  if (decideNow !== undefined) budgeted.consumeQuotaNow = consumeQuotaNow(decideNow.bind(store));
  return budgeted as unknown as Store;

  /**
   * The backend's decision at once (in process, so never late): timed into consumeQuota's tally, an outage a 503 as
   * above. Undefined, so that the caller goes through consumeQuota, while the backend is late and while tracing
   * (consumeQuota's span is made there).
   */
  function consumeQuotaNow(decide: NonNullable<Store['consumeQuotaNow']>): NonNullable<Store['consumeQuotaNow']> {
    const calls = p.calls;
    // consumeQuota's tally, taken on the first decision (as observedStoreCall takes it).
    let tally: StoreCallTally | undefined;
    const record = (result: StoreCallOutcome, started: number) => {
      if (calls !== undefined)
        (tally ??= calls.of('consumeQuota')).record(result, (performance.now() - started) / 1000);
    };
    return (params) => {
      if (waking !== undefined || tracingEnabled()) return undefined;
      const started = calls === undefined ? 0 : performance.now();
      let decision: QuotaDecision | undefined;
      try {
        decision = decide(params);
      } catch (err) {
        const refused = refusalOf(err);
        record(outcome(refused), started);
        throw refused;
      }
      if (decision !== undefined) record('ok', started);
      return decision;
    };
  }
}
