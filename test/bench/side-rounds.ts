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

/** One round: the order the sides ran in, the machine's load average (`uptime`'s 1, 5, 15 min), each side's run. */
export interface Round {
  order: string[];
  loadAverage: number[];
  sides: Record<string, SideRun>;
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
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** `1.23 (1.10–1.31)`: a spread as the tables print it. */
export function formatSpread(s: Spread, digits = 2): string {
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
 * before its run and after it has drained, so work left in flight lands on the side that caused it.
 * @example const rounds = await runRounds([service, bare], { rounds: 5, seconds: 10, warmupS: 3 }, log)
 */
export async function runRounds(
  sides: readonly BenchSide[],
  options: RoundOptions,
  log: (line: string) => void,
): Promise<Round[]> {
  log(`warm-up, ${options.warmupS} s per side`);
  for (const side of sides) {
    await side.drive(options.warmupS);
    await drainedCpuSeconds(side.pids);
  }
  const rounds: Round[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const order = sides.map((_, i) => sides[(i + r) % sides.length]!);
    const loadAverage = loadavg().map((l) => Math.round(l * 100) / 100);
    log(
      `round ${r + 1}/${options.rounds} (load average ${loadAverage.join(' ')}): ${order.map((s) => s.name).join(' → ')}`,
    );
    const runs: Record<string, SideRun> = {};
    for (const side of order) {
      const before = processTreeCpuSeconds(side.pids);
      const result = await side.drive(options.seconds);
      const cpuSeconds = (await drainedCpuSeconds(side.pids)) - before;
      runs[side.name] = {
        rps: result.requests.total / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        sent: result.requests.sent,
        cpuMsPerRequest: (1000 * cpuSeconds) / Math.max(1, result.requests.sent),
      };
    }
    rounds.push({ order: order.map((s) => s.name), loadAverage, sides: runs });
  }
  return rounds;
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
  const runs = rounds.map((r) => r.sides[name]!);
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
  return {
    side,
    baseline,
    rps: spread(rounds.map((r) => r.sides[side]!.rps / r.sides[baseline]!.rps)),
    cpu: spread(rounds.map((r) => r.sides[baseline]!.cpuMsPerRequest / r.sides[side]!.cpuMsPerRequest)),
  };
}
