import Database from 'better-sqlite3';
import { quotaWindow } from './quota-window.js';
import type { QuotaCounter, QuotaDecision, QuotaReading } from './store.js';

/** How often counts below their limit reach the file; a crash forgets at most this much of them (credits are never written behind). */
export const QUOTA_FLUSH_INTERVAL_MS = 100;
/** Counters kept in memory; past it the oldest loaded are written out and dropped (and reloaded if used again). */
const MAX_COUNTERS = 200_000;

/** One counter's row in `quota_counters`: its current window and count. */
export interface CounterRow {
  key: string;
  windowMs: number;
  window: number;
  count: number;
  expiresAt: number;
}

interface CounterState extends CounterRow {
  dirty: boolean;
}

/**
 * Quota counters of one SQLite file, owned by this process and written behind: a counted call costs a Map lookup
 * instead of a write transaction (the hot path of every counted request). Exact within the process, because every
 * store opened on the file here shares this one instance and JavaScript runs each decision to completion; several
 * processes must share Redis instead (docs/operators.md#store).
 */
export class SqliteQuotaCounters {
  private readonly db: Database.Database;
  private readonly load;
  private readonly save;
  private readonly setCounts;
  /** By window length, then key: no composite key string to build and hash on every call. */
  private readonly counters = new Map<number, Map<string, CounterState>>();
  private size = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    file: string,
    private readonly maxCounters = MAX_COUNTERS,
  ) {
    this.db = new Database(file);
    // As the store's own connection: a committed write survives a crash of the process.
    this.db.pragma('synchronous = NORMAL');
    // A locked file fails at once (the store's calls wait on timers, sqlite-lock-wait.ts): never a sleeping process.
    this.db.pragma('busy_timeout = 0');
    this.load = this.db.prepare<[string, number, number], { count: number }>(
      'SELECT count FROM quota_counters WHERE key = ? AND window_ms = ? AND window = ?',
    );
    const upsert = this.db.prepare<[string, number, number, number, number]>(
      `INSERT INTO quota_counters (key, window_ms, window, count, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key, window_ms, window) DO UPDATE SET count = max(count, excluded.count)`,
    );
    this.save = this.db.transaction((states: CounterState[]) => {
      for (const s of states) upsert.run(s.key, s.windowMs, s.window, s.count, s.expiresAt);
    });
    const set = this.db.prepare<[string, number, number, number, number]>(
      `INSERT INTO quota_counters (key, window_ms, window, count, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key, window_ms, window) DO UPDATE SET count = excluded.count`,
    );
    this.setCounts = this.db.transaction((states: CounterState[]) => {
      for (const s of states) set.run(s.key, s.windowMs, s.window, s.count, s.expiresAt);
    });
    this.timer = setInterval(() => this.flush(), QUOTA_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  private state(counter: QuotaCounter, now: number): CounterState {
    const w = quotaWindow(counter, now);
    let byKey = this.counters.get(counter.windowMs);
    if (!byKey) {
      byKey = new Map();
      this.counters.set(counter.windowMs, byKey);
    }
    let state = byKey.get(counter.key);
    if (!state || state.window !== w.index) {
      if (state?.dirty) this.save([state]);
      const stored = this.load.get(counter.key, counter.windowMs, w.index)?.count ?? 0;
      state = {
        key: counter.key,
        windowMs: counter.windowMs,
        window: w.index,
        count: stored,
        expiresAt: w.resetsAt,
        dirty: false,
      };
      if (!byKey.has(counter.key)) this.size += 1;
      byKey.set(counter.key, state);
    }
    return state;
  }

  /**
   * Before a call loads up to `incoming` counters: at the bound, the oldest tenth (or what the call needs) is
   * written out and dropped. Done before the call holds any state, so none it counts on can be dropped under it.
   */
  private makeRoom(incoming: number): void {
    if (this.size + incoming <= this.maxCounters) return;
    const drop = Math.max(Math.ceil(this.maxCounters / 10), this.size + incoming - this.maxCounters);
    const dropped: [Map<string, CounterState>, CounterState][] = [];
    for (const byKey of this.counters.values()) {
      for (const state of byKey.values()) {
        if (dropped.length >= drop) break;
        dropped.push([byKey, state]);
      }
    }
    try {
      this.save(dropped.flatMap(([, state]) => (state.dirty ? [state] : [])));
    } catch {
      // The file is locked or failing: keep them all in memory (over the bound for now) rather than lose counts.
      return;
    }
    for (const [byKey, state] of dropped) {
      byKey.delete(state.key);
      state.dirty = false;
    }
    this.size -= dropped.length;
  }

  /** All counters move by one, or none does (see Store.consumeQuota). */
  consume(counters: QuotaCounter[], now: number): QuotaDecision {
    this.makeRoom(counters.length);
    const states: CounterState[] = new Array(counters.length);
    let admitted = true;
    for (let i = 0; i < counters.length; i++) {
      const state = this.state(counters[i]!, now);
      states[i] = state;
      if (state.count >= counters[i]!.limit) admitted = false;
    }
    if (admitted) {
      let writeNow: CounterState[] | undefined;
      for (let i = 0; i < states.length; i++) {
        const state = states[i]!;
        const counter = counters[i]!;
        state.count += 1;
        state.dirty = true;
        if (counter.durable || state.count >= counter.limit) (writeNow ??= []).push(state);
      }
      // A quota that just closed, or a durable counter, is written before the call is answered, so a crash can never
      // reopen a quota or forget a key's count; the rest is written behind (a crash forgets at most
      // QUOTA_FLUSH_INTERVAL_MS of it).
      if (writeNow) {
        try {
          this.save(writeNow);
        } catch (err) {
          // Not written (the file is locked or failing): the call is not admitted, so it counts nowhere.
          for (const state of states) state.count -= 1;
          throw err;
        }
        for (const state of writeNow) state.dirty = false;
      }
    }
    return { admitted, counts: states.map((state) => state.count), resetsAt: states.map((state) => state.expiresAt) };
  }

  /**
   * Moves one counter by `step` (+1 or -1; no limit, never below 0) inside a transaction the caller runs on its own
   * connection to the file: `write` must store the row it is given and say whether that committed; only then does the
   * count move here.
   */
  moveWithin(counter: QuotaCounter, now: number, step: 1 | -1, write: (row: CounterRow) => boolean): void {
    this.makeRoom(1);
    const state = this.state(counter, now);
    const row: CounterRow = {
      key: state.key,
      windowMs: state.windowMs,
      window: state.window,
      count: Math.max(0, state.count + step),
      expiresAt: state.expiresAt,
    };
    if (!write(row)) return;
    // The row written holds every count this process had for the window: nothing is left to write behind.
    state.count = row.count;
    state.dirty = false;
  }

  /** Takes one count back from each counter's window at `now`, never below 0, in memory and in the file. */
  refund(counters: QuotaCounter[], now: number): void {
    this.makeRoom(counters.length);
    const states = counters.map((c) => this.state(c, now)).filter((state) => state.count > 0);
    for (const state of states) state.count -= 1;
    // The write-behind keeps the higher of two counts (max): a lower one must be set outright.
    this.setCounts(states);
    for (const state of states) state.dirty = false;
  }

  read(counters: QuotaCounter[], now: number): QuotaReading {
    this.makeRoom(counters.length);
    const states = counters.map((c) => this.state(c, now));
    return { counts: states.map((s) => s.count), resetsAt: states.map((s) => s.expiresAt) };
  }

  /** Writes every changed counter to the file in one transaction. */
  flush(): void {
    const dirty: CounterState[] = [];
    for (const byKey of this.counters.values()) {
      for (const state of byKey.values()) {
        if (state.dirty) {
          state.dirty = false;
          dirty.push(state);
        }
      }
    }
    if (dirty.length === 0 || !this.db.open) return;
    try {
      this.save(dirty);
    } catch {
      // The file was busy or failing: keep the counts and try again at the next tick.
      for (const state of dirty) state.dirty = true;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
    this.db.close();
  }
}

const shared = new Map<string, { counters: SqliteQuotaCounters; users: number }>();

/** The one SqliteQuotaCounters of a file in this process; release it when the store closes. */
export function acquireQuotaCounters(file: string): SqliteQuotaCounters {
  let entry = shared.get(file);
  if (!entry) {
    entry = { counters: new SqliteQuotaCounters(file, MAX_COUNTERS), users: 0 };
    shared.set(file, entry);
  }
  entry.users += 1;
  return entry.counters;
}

export function releaseQuotaCounters(file: string): void {
  const entry = shared.get(file);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users === 0) {
    shared.delete(file);
    entry.counters.close();
  }
}
