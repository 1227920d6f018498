import { type Comparison, JUDGED_AT_LOAD, judgeable, type Round, type SideSummary } from './side-rounds.js';

/** Issue 28's goal: Hive Gateway needs at least this many times our CPU per request on the mix. */
export const HIVE_CPU_GOAL = 5;

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

/** Whether rounds say anything of the goal: NOT JUDGED when any of them started or ended above JUDGED_AT_LOAD. */
export function hiveVerdict(c: Comparison, rounds: readonly Round[]): string {
  if (Number.isNaN(c.cpu.median)) return 'NOT MEASURED';
  if (!judgeable(rounds)) return `NOT JUDGED (load > ${JUDGED_AT_LOAD})`;
  return c.cpu.median >= HIVE_CPU_GOAL ? 'PASS' : 'FAIL';
}
