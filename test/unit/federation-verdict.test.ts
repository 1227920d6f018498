import { describe, expect, it } from 'vitest';
import { equalRateFor, hiveVerdict } from '../bench/federation-verdict.js';
import type { Comparison, Round, SideSummary } from '../bench/side-rounds.js';

const side = (name: string, rps: number): SideSummary => ({
  name,
  rps: { median: rps, min: rps, max: rps },
  cpuMsPerRequest: { median: 1, min: 1, max: 1 },
  p50: 1,
  p99: 2,
});

const round = (start: number, end: number): Round => ({
  order: [],
  loadAverage: [start, 0, 0],
  loadAverageAtEnd: [end, 0, 0],
  sides: {},
  failed: {},
});

const hive = (cpu: number): Comparison => ({
  side: 'our /graphql',
  baseline: 'Hive Gateway',
  rps: { median: 3, min: 3, max: 3 },
  cpu: { median: cpu, min: cpu, max: cpu },
});

describe('the federation goal (test/bench/federation-verdict.ts)', () => {
  it('paces every side at half the slowest side’s saturated req/s, at most 1,000 req/s', () => {
    expect(equalRateFor([side('ours', 6000), side('hive', 900), side('apollo', 400)], undefined)).toBe(200);
    expect(equalRateFor([side('ours', 9000), side('hive', 4000)], undefined)).toBe(1000);
  });

  it('leaves out a side that failed every saturated round, and has no rate when none finished', () => {
    expect(equalRateFor([side('ours', 6000), side('hive', Number.NaN)], undefined)).toBe(1000);
    expect(equalRateFor([side('ours', Number.NaN)], undefined)).toBeUndefined();
  });

  it('takes BENCH_FEDERATION_RATE as given, and refuses one that is not a positive number', () => {
    expect(equalRateFor([side('ours', 6000)], '250')).toBe(250);
    expect(() => equalRateFor([side('ours', 6000)], 'fast')).toThrow(/BENCH_FEDERATION_RATE/);
    expect(() => equalRateFor([side('ours', 6000)], '0')).toThrow(/positive/);
  });

  it('judges the goal only when every round started and ended at load ≤ 2', () => {
    expect(hiveVerdict(hive(5.4), [round(1.2, 1.6), round(1.5, 1.9)])).toBe('PASS');
    expect(hiveVerdict(hive(4.6), [round(1.2, 1.6)])).toBe('FAIL');
    expect(hiveVerdict(hive(5.4), [round(1.2, 1.6), round(1.9, 2.3)])).toBe('NOT JUDGED (load > 2)');
    expect(hiveVerdict(hive(Number.NaN), [round(1, 1)])).toBe('NOT MEASURED');
  });
});
