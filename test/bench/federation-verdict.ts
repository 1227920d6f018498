import type { Comparison, Round, SideSummary } from './side-rounds.js';

/** Issue 28's goal: Hive Gateway needs at least this many times our CPU per request on the mix. */
export const HIVE_CPU_GOAL = 5;

/** Issue 36: goals are judged at a 1-minute load average of at most this (2 cores). */
export const QUIET_LOAD = 2;

/** The equal rate's ceiling: the outside harness of issue 36 paced its pairs at 1,000 req/s. */
const EQUAL_RATE_CAP = 1000;

/**
 * The rate every side is paced at in the judged rounds: BENCH_FEDERATION_RATE, or half the slowest side's median
 * saturated req/s (so that none of them is near its limit), at most EQUAL_RATE_CAP.
 */
export function equalRateFor(sides: readonly SideSummary[], override: string | undefined): number | undefined {
  if (override !== undefined && override !== '') {
    const rate = Number(override);
    if (!Number.isFinite(rate) || rate <= 0)
      throw new Error(`BENCH_FEDERATION_RATE must be a positive number, got ${override}`);
    return rate;
  }
  const measured = sides.map((s) => s.rps.median).filter((rps) => Number.isFinite(rps));
  if (measured.length === 0) return undefined;
  return Math.max(1, Math.min(EQUAL_RATE_CAP, Math.floor(Math.min(...measured) / 2)));
}

/** Whether rounds say anything of the goal: NOT JUDGED when any of them started or ended above QUIET_LOAD. */
export function hiveVerdict(
  c: Comparison,
  rounds: readonly Round[],
): 'NOT MEASURED' | 'NOT JUDGED (load > 2)' | 'PASS' | 'FAIL' {
  if (Number.isNaN(c.cpu.median)) return 'NOT MEASURED';
  if (rounds.some((r) => Math.max(r.loadAverage[0]!, r.loadAverageAtEnd[0]!) > QUIET_LOAD))
    return 'NOT JUDGED (load > 2)';
  return c.cpu.median >= HIVE_CPU_GOAL ? 'PASS' : 'FAIL';
}
