import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import { processTreeCpuSeconds } from './process-cpu.js';

/** One thing the benchmark loads: a server (its process tree) answering one request or a mix. */
export interface BenchSide {
  name: string;
  /** The processes whose CPU (with their descendants') is charged to this side. */
  pids: readonly number[];
  /** One autocannon run of `durationS` seconds against this side; throws on any non-2xx, error or timeout. */
  drive(durationS: number): Promise<autocannon.Result>;
}

/** One side in one round. */
export interface SideRun {
  rps: number;
  p50: number;
  p99: number;
  /** Requests sent, those still in flight when the run stopped included: the server did their work too. */
  sent: number;
  /** utime + stime of the side's process tree from before the run until it had drained, per request sent. */
  cpuMsPerRequest: number;
}

/**
 * One round: the order the sides ran in, the machine's load average (`uptime`'s 1, 5, 15 min) when it began and when
 * it ended, each side's run, and the sides that failed in it (their error; they sit out the later rounds).
 */
export interface Round {
  order: string[];
  loadAverage: number[];
  loadAverageAtEnd: number[];
  sides: Record<string, SideRun>;
  failed: Record<string, string>;
}

/** A side that failed (a non-2xx, an error or a timeout): in which round (0: the warm-up) and why. */
export interface SideFailure {
  side: string;
  round: number;
  error: string;
}

/** A figure over the rounds: its median and its range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface RoundOptions {
  rounds: number;
  /** Measured seconds per side per round. */
  seconds: number;
  /** Seconds of load per side before the first round (JIT, caches, connection pools). */
  warmupS: number;
  /**
   * Wait before each round (at most QUIET_WAIT_MS) until the 1-minute load average is at most this: rounds meant to be
   * judged quiet do not start in the wake of the busy ones before them.
   */
  quietLoad?: number;
}

/** The median and range of `values`; NaN throughout when there are none (a side that failed in every round). */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** `1.23 (1.10–1.31)`: a spread as the tables print it. */
export function formatSpread(s: Spread, digits = 2): string {
  if (Number.isNaN(s.median)) return '— (failed)';
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

/** CPU a drained side may still spend per poll (a tick is 10 ms): timers, a chain's block clock — not requests. */
const IDLE_CPU_S_PER_POLL = 0.02;
const POLL_MS = 200;
const MAX_DRAIN_MS = 10_000;

/**
 * Waits until the side's process tree is idle (under two ticks of CPU in 200 ms) and returns its CPU seconds then:
 * the requests autocannon left in flight when it stopped have been answered, so their work is charged to this side
 * and not to whichever side runs next.
 */
async function drainedCpuSeconds(pids: readonly number[]): Promise<number> {
  let last = processTreeCpuSeconds(pids);
  const deadline = Date.now() + MAX_DRAIN_MS;
  while (Date.now() < deadline) {
    await sleep(POLL_MS);
    const now = processTreeCpuSeconds(pids);
    if (now - last <= IDLE_CPU_S_PER_POLL) return now;
    last = now;
  }
  return last;
}

/**
 * Drives the sides side by side: a warm-up of each, then `rounds` rounds of `seconds` per side, the order rotated by
 * one each round (no side always runs first, after a busy neighbour, or on a cooler machine). Each side's CPU is read
 * before its run and after it has drained, so work left in flight lands on the side that caused it. A side that fails
 * (its drive throws) is recorded in that round's `failed` and sits out the later rounds; the others go on, and every
 * finished run is kept.
 * @example const rounds = await runRounds([service, bare], { rounds: 5, seconds: 10, warmupS: 3 }, log)
 */
export async function runRounds(
  sides: readonly BenchSide[],
  options: RoundOptions,
  log: (line: string) => void,
): Promise<{ rounds: Round[]; failures: SideFailure[] }> {
  const failures = new Map<string, SideFailure>();
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
  // Rounds that wait for a quiet machine are warmed up once it is quiet: a side left idle for the wait is warmed anew.
  if (options.quietLoad !== undefined) await settle(options.quietLoad, log);
  log(`warm-up, ${options.warmupS} s per side`);
  for (const side of sides) {
    try {
      await side.drive(options.warmupS);
    } catch (err) {
      failures.set(side.name, { side: side.name, round: 0, error: message(err) });
      log(`${side.name} FAILED in the warm-up: ${message(err)}`);
    }
    await drainedCpuSeconds(side.pids);
  }
  const rounds: Round[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const order = sides.map((_, i) => sides[(i + r) % sides.length]!).filter((s) => !failures.has(s.name));
    if (order.length === 0) break;
    if (options.quietLoad !== undefined) await settle(options.quietLoad, log);
    const loadAverage = roundedLoad();
    log(
      `round ${r + 1}/${options.rounds} (load average ${loadAverage.join(' ')}): ${order.map((s) => s.name).join(' → ')}`,
    );
    const runs: Record<string, SideRun> = {};
    const failed: Record<string, string> = {};
    for (const side of order) {
      const before = processTreeCpuSeconds(side.pids);
      let result: autocannon.Result;
      try {
        result = await side.drive(options.seconds);
      } catch (err) {
        failed[side.name] = message(err);
        failures.set(side.name, { side: side.name, round: r + 1, error: message(err) });
        log(`${side.name} FAILED in round ${r + 1}: ${message(err)}`);
        await drainedCpuSeconds(side.pids);
        continue;
      }
      const cpuSeconds = (await drainedCpuSeconds(side.pids)) - before;
      runs[side.name] = {
        rps: result.requests.total / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        sent: result.requests.sent,
        cpuMsPerRequest: (1000 * cpuSeconds) / Math.max(1, result.requests.sent),
      };
    }
    rounds.push({ order: order.map((s) => s.name), loadAverage, loadAverageAtEnd: roundedLoad(), sides: runs, failed });
  }
  return { rounds, failures: [...failures.values()] };
}

/** Goals are judged at load ≤ 2 (the 1-minute average at every round's start and end); above it, printed, not judged. */
export const JUDGED_AT_LOAD = 2;

/**
 * Rounds meant to be judged wait for the load to settle to this before they start: a round saturating 2 cores holds
 * about 2 processes busy, so one started at 2 ends above it, one started at 1.5 ends near 1.7.
 */
export const SETTLED_START_LOAD = 1.5;

/** Whether every round started and ended at load ≤ JUDGED_AT_LOAD. */
export function judgeable(rounds: readonly Round[]): boolean {
  return rounds.every((round) => Math.max(round.loadAverage[0]!, round.loadAverageAtEnd[0]!) <= JUDGED_AT_LOAD);
}

/** The longest wait for the load average to settle before a round: it decays by 1/e a minute. */
const QUIET_WAIT_MS = 120_000;

/** Waits (polling every 2 s, at most QUIET_WAIT_MS) until the 1-minute load average is at most `load`. */
async function settle(load: number, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + QUIET_WAIT_MS;
  if (loadavg()[0]! > load) log(`waiting for the load average (${roundedLoad()[0]}) to settle to ${load}…`);
  while (loadavg()[0]! > load && Date.now() < deadline) await sleep(2000);
}

/** `uptime`'s three load averages, to two decimals. */
export function roundedLoad(): number[] {
  return loadavg().map((l) => Math.round(l * 100) / 100);
}

/** What the rounds say of one side: medians and ranges of its req/s and CPU per request, medians of its latency. */
export interface SideSummary {
  name: string;
  rps: Spread;
  cpuMsPerRequest: Spread;
  p50: number;
  p99: number;
}

export function summarizeSide(rounds: readonly Round[], name: string): SideSummary {
  const runs = rounds.flatMap((r) => (r.sides[name] ? [r.sides[name]] : []));
  return {
    name,
    rps: spread(runs.map((r) => r.rps)),
    cpuMsPerRequest: spread(runs.map((r) => r.cpuMsPerRequest)),
    p50: spread(runs.map((r) => r.p50)).median,
    p99: spread(runs.map((r) => r.p99)).median,
  };
}

/**
 * `side` against `baseline`, each round's own ratio (both measured in that round, under that load): req/s of side ÷
 * baseline, and CPU per request of baseline ÷ side (above 1: the side needs less machine per request).
 */
export interface Comparison {
  side: string;
  baseline: string;
  rps: Spread;
  cpu: Spread;
}

export function compare(rounds: readonly Round[], side: string, baseline: string): Comparison {
  const both = rounds.flatMap((r) => (r.sides[side] && r.sides[baseline] ? [[r.sides[side], r.sides[baseline]]] : []));
  return {
    side,
    baseline,
    rps: spread(both.map(([s, b]) => s!.rps / b!.rps)),
    cpu: spread(both.map(([s, b]) => b!.cpuMsPerRequest / s!.cpuMsPerRequest)),
  };
}
