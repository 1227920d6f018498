import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteQuotaCounters } from '../../src/store/sqlite-quota-counters.js';
import { migrateSqliteSchema } from '../../src/store/sqlite-schema.js';
import type { QuotaCounter } from '../../src/store/store.js';

const MINUTE = 60_000;
/** A minute boundary, plus a second: well inside one window. */
const NOW = Date.UTC(2025, 2, 14, 12, 0, 1);
const WINDOW = Math.floor(NOW / MINUTE);

let dir: string;
let file: string;
let counters: SqliteQuotaCounters | undefined;
/** A second connection to the file: what it sees is what reached the disk. */
let reader: Database.Database | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quota-counters-'));
  file = join(dir, 'store.sqlite');
  // The schema as the SQLite store creates it (openSqliteStore: WAL, then the migrations).
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  migrateSqliteSchema(db);
  db.close();
  reader = new Database(file, { readonly: true });
});

afterEach(() => {
  counters?.close();
  counters = undefined;
  reader?.close();
  reader = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function open(maxCounters?: number): SqliteQuotaCounters {
  counters = new SqliteQuotaCounters(file, maxCounters);
  return counters;
}

/** The count stored in the file for a key in a window, or undefined when no row is there. */
function onDisk(key: string, window = WINDOW, windowMs = MINUTE): number | undefined {
  const row = reader!
    .prepare<[string, number, number], { count: number }>(
      'SELECT count FROM quota_counters WHERE key = ? AND window_ms = ? AND window = ?',
    )
    .get(key, windowMs, window);
  return row?.count;
}

const counter = (key: string, limit = 1_000): QuotaCounter => ({ key, limit, windowMs: MINUTE });

describe('SQLite quota counters', () => {
  it('counts each consumed call and reads the count back', () => {
    const quota = open();
    const c = counter('ip:203.0.113.7', 5);

    expect(quota.consume([c], NOW)).toEqual({ admitted: true, counts: [1], resetsAt: [(WINDOW + 1) * MINUTE] });
    expect(quota.consume([c], NOW).counts).toEqual([2]);
    expect(quota.read([c], NOW)).toEqual({ counts: [2], resetsAt: [(WINDOW + 1) * MINUTE] });
  });

  it('refuses a call at the limit and moves no counter of a refused call', () => {
    const quota = open();
    const minute = counter('key:1:minute', 2);
    const day = counter('key:1:day', 100);

    quota.consume([minute, day], NOW);
    quota.consume([minute, day], NOW);
    const refused = quota.consume([minute, day], NOW);

    expect(refused.admitted).toBe(false);
    expect(refused.counts).toEqual([2, 2]);
    expect(quota.read([minute, day], NOW).counts).toEqual([2, 2]);
  });

  it('keeps every count exact past maxCounters, reloading dropped counters from the file', () => {
    const quota = open(10);
    const all = Array.from({ length: 30 }, (_, i) => counter(`ip:10.0.0.${i}`));
    const times = (i: number) => (i % 4) + 1;

    for (const [i, c] of all.entries()) {
      for (let n = 0; n < times(i); n++) quota.consume([c], NOW);
    }

    expect(quota.read(all, NOW).counts).toEqual(all.map((_, i) => times(i)));
  });

  it('continues a dropped counter from its stored count when it is consumed again, not from 0', () => {
    const quota = open(10);
    const first = counter('ip:10.0.0.0');
    for (let n = 0; n < 3; n++) quota.consume([first], NOW);
    // Twenty more counters push the first one out of memory.
    for (let i = 1; i <= 20; i++) quota.consume([counter(`ip:10.0.0.${i}`)], NOW);

    expect(quota.consume([first], NOW).counts).toEqual([4]);
    expect(quota.read([first], NOW).counts).toEqual([4]);
  });

  it('never drops a counter that the call counting it already holds', () => {
    const quota = open(10);
    const oldest = counter('ip:10.0.0.0');
    quota.consume([oldest], NOW);
    quota.consume([oldest], NOW);
    // Memory is full and the oldest counter is the first to go.
    for (let i = 1; i <= 9; i++) quota.consume([counter(`ip:10.0.0.${i}`)], NOW);

    expect(quota.consume([oldest, counter('ip:10.0.1.1')], NOW).counts).toEqual([3, 1]);
    quota.flush();
    expect(quota.read([oldest], NOW).counts).toEqual([3]);
  });

  it('writes a dropped counter to the file as it leaves memory', () => {
    const quota = open(10);
    const first = counter('ip:10.0.0.0');
    quota.consume([first], NOW);
    quota.consume([first], NOW);
    expect(onDisk(first.key)).toBeUndefined();

    for (let i = 1; i <= 20; i++) quota.consume([counter(`ip:10.0.0.${i}`)], NOW);

    expect(onDisk(first.key)).toBe(2);
  });

  it('writes a counter that reaches its limit to the file at once', () => {
    const quota = open();
    const c = counter('key:abc:minute', 3);
    quota.consume([c], NOW);
    quota.consume([c], NOW);
    const last = quota.consume([c], NOW);

    // No flush and no await in between: the timer cannot have run.
    expect(last).toMatchObject({ admitted: true, counts: [3] });
    expect(onDisk(c.key)).toBe(3);
  });

  it('writes a counter below its limit to the file on flush', () => {
    const quota = open();
    const c = counter('key:abc:day', 100);
    quota.consume([c], NOW);
    quota.consume([c], NOW);
    expect(onDisk(c.key)).toBeUndefined();

    quota.flush();

    expect(onDisk(c.key)).toBe(2);
  });

  it('hands its counts to the next process through the file on close', () => {
    const quota = open();
    const c = counter('key:abc:day', 100);
    for (let n = 0; n < 5; n++) quota.consume([c], NOW);
    quota.close();
    counters = undefined;

    const next = open();
    expect(next.read([c], NOW).counts).toEqual([5]);
    expect(next.consume([c], NOW).counts).toEqual([6]);
  });

  it('starts a new window from 0', () => {
    const quota = open();
    const c = counter('ip:203.0.113.7', 5);
    for (let n = 0; n < 5; n++) quota.consume([c], NOW);
    expect(quota.consume([c], NOW).admitted).toBe(false);

    const next = quota.consume([c], NOW + MINUTE);

    expect(next).toEqual({ admitted: true, counts: [1], resetsAt: [(WINDOW + 2) * MINUTE] });
    expect(quota.read([c], NOW + MINUTE).counts).toEqual([1]);
  });

  it('keeps the count of the window it leaves in the file', () => {
    const quota = open();
    const c = counter('ip:203.0.113.7', 100);
    for (let n = 0; n < 4; n++) quota.consume([c], NOW);

    quota.consume([c], NOW + MINUTE);

    expect(onDisk(c.key, WINDOW)).toBe(4);
  });

  it('a closing count that cannot be written (the file locked elsewhere) fails at once and counts nothing', () => {
    const quota = open();
    const c = counter('key:abc:minute', 3);
    quota.consume([c], NOW);
    quota.consume([c], NOW);
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    try {
      // The third call closes the quota and must be written before it is admitted: the lock refuses the write.
      expect(() => quota.consume([c], NOW)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
      expect(quota.read([c], NOW).counts).toEqual([2]);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect(quota.consume([c], NOW)).toMatchObject({ admitted: true, counts: [3] });
    expect(onDisk(c.key)).toBe(3);
  });
});
