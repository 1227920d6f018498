import 'reflect-metadata';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import {
  type RunningProcess,
  startHiveGateway,
  startSubgraphProcesses,
  writeSupergraph,
} from '../helpers/federation-processes.js';
import { pidTracker } from './bench-exit.js';
import { productionBenchEnv } from './captured-answer.js';
import { type ChildServer, startChildServer } from './child-server.js';
import { equalRateFor, HIVE_CPU_GOAL, hiveVerdict } from './federation-verdict.js';
import {
  type BenchSide,
  type Comparison,
  compare,
  formatSpread,
  JUDGED_AT_LOAD,
  type Round,
  type RoundOptions,
  runRounds,
  SETTLED_START_LOAD,
  type SideFailure,
  type SideSummary,
  summarizeSide,
} from './side-rounds.js';

/**
 * The cross-subgraph mix of issue 13, sent in turn on every connection: ENS profile → wallet (balances) → Farcaster
 * user; ENS names with token prices; a Farcaster user → its verified wallets → their primary ENS names.
 */
export const CROSS_SUBGRAPH_MIX: readonly string[] = [
  '{ ensProfile(name: "alice.eth") { name address avatar records { key value } wallet { address primaryName balance { symbol balance tokens { symbol balance priceUsd } } farcasterUser { fid username displayName followers verifications } } } }',
  '{ ensProfiles(names: ["alice.eth", "bob.eth", "carol.eth"]) { name address wallet { primaryName } } tokenPrices(symbols: ["ETH", "USDC", "BTC"]) { symbol price change24h } }',
  '{ farcasterUser(identifier: "alice") { fid username verifiedWallets { address primaryName } } }',
];

export interface FederationResult {
  mix: readonly string[];
  sides: SideSummary[];
  /** Our /graphql against each other side: req/s ours ÷ theirs, CPU per request theirs ÷ ours, per round. */
  comparisons: Comparison[];
  rounds: Round[];
  /** Sides that failed (they sat out the later rounds; their finished rounds are kept). */
  failures: SideFailure[];
  /**
   * The rounds the goal is judged on: every side paced at one equal rate, well under the slowest side's capacity, so
   * that the machine stays quiet (the saturated rounds above keep 2 cores at load 2 or more by themselves) and CPU per
   * request is compared with no side paying for contention. Absent when no side finished the saturated rounds.
   */
  equalRate?: EqualRateResult;
}

export interface EqualRateResult {
  /** Requests per second every side was sent. */
  rate: number;
  sides: SideSummary[];
  comparisons: Comparison[];
  rounds: Round[];
  failures: SideFailure[];
}

interface Target {
  name: string;
  /** The GraphQL endpoint. */
  url: string;
  /** The processes answering it, with their descendants: what its CPU is measured over. */
  pids: number[];
}

async function dataOf(url: string, query: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  if (!res.ok || body.errors) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
  return JSON.stringify(body.data);
}

async function drive(
  target: Target,
  durationS: number,
  connections: number,
  rate?: number,
): Promise<autocannon.Result> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections,
    duration: durationS,
    overallRate: rate,
    requests: CROSS_SUBGRAPH_MIX.map((query) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    })),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return result;
}

/**
 * Our /graphql (one process) against Hive Gateway and stock @apollo/gateway, each over the same subgraph
 * processes started by `npm run subgraph`, on the same query mix, side by side in rotated rounds (side-rounds.ts).
 * Every side's data must be byte-identical to ours before anything is measured.
 */
export async function benchFederation(p: {
  server: ChildServer;
  scratch: string;
  options: RoundOptions & { connections: number };
  log: (line: string) => void;
}): Promise<FederationResult> {
  p.log(`federation: starting the ${SUBGRAPH_MODULES.length} subgraphs (npm run subgraph)…`);
  // Killed on any way out of the benchmark, even while they are still starting.
  const tracker = pidTracker();
  const subgraphs = await startSubgraphProcesses({
    track: tracker.track,
    names: SUBGRAPH_MODULES.map((m) => m.name),
    // Every side runs as in production (the gateways too, below): graphql-js skips its development checks. A subgraph
    // is a live configuration then, and refuses the demo receiver, signer and secret as the service does.
    env: { ...process.env, LOG_LEVEL: 'warn', ...productionBenchEnv() },
    dataDirRoot: join(p.scratch, 'subgraphs'),
  });
  let hive: RunningProcess | undefined;
  let apollo: ChildServer | undefined;
  try {
    const supergraphFile = join(p.scratch, 'supergraph.graphql');
    await writeSupergraph(new Map([...subgraphs.subgraphs].map(([name, s]) => [name, s.url])), supergraphFile);
    p.log('federation: starting Hive Gateway and @apollo/gateway…');
    hive = await startHiveGateway({ supergraphFile, env: { NODE_ENV: 'production' }, track: tracker.track });
    apollo = await startChildServer({
      label: '@apollo/gateway',
      script: fileURLToPath(new URL('./apollo-gateway-server.js', import.meta.url)),
      args: [supergraphFile],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const subgraphPids = [...subgraphs.subgraphs.values()].map((s) => s.pid);
    const targets: Target[] = [
      { name: 'our /graphql', url: `${p.server.url}/graphql`, pids: [p.server.pid] },
      { name: 'Hive Gateway', url: `${hive.url}/graphql`, pids: [hive.pid, ...subgraphPids] },
      { name: '@apollo/gateway', url: `${apollo.url}/graphql`, pids: [apollo.pid, ...subgraphPids] },
    ];
    for (const query of CROSS_SUBGRAPH_MIX) {
      const ours = await dataOf(targets[0]!.url, query);
      for (const t of targets.slice(1)) {
        if ((await dataOf(t.url, query)) !== ours) throw new Error(`${t.name} answers ${query} with other data`);
      }
    }
    const sides: BenchSide[] = targets.map((t) => ({
      name: t.name,
      pids: t.pids,
      drive: (durationS) => drive(t, durationS, p.options.connections),
    }));
    const { rounds, failures } = await runRounds(sides, p.options, (line) => p.log(`federation: ${line}`));
    const summaries = targets.map((t) => summarizeSide(rounds, t.name));
    const result: FederationResult = {
      mix: CROSS_SUBGRAPH_MIX,
      sides: summaries,
      comparisons: targets.slice(1).map((t) => compare(rounds, targets[0]!.name, t.name)),
      rounds,
      failures,
    };
    // The goal's two sides (ours and Hive Gateway), if both finished the saturated rounds: @apollo/gateway, far slower,
    // would set the rate for nothing it is judged on.
    const goalSides = targets.filter(
      (t) => (t === targets[0] || t.name === 'Hive Gateway') && !failures.some((f) => f.side === t.name),
    );
    const rate = equalRateFor(
      summaries.filter((s) => goalSides.some((t) => t.name === s.name)),
      process.env.BENCH_FEDERATION_RATE,
    );
    if (rate === undefined || goalSides.length < 2) return result;
    const paced = goalSides.map((t) => ({
      name: t.name,
      pids: t.pids,
      drive: (durationS: number) => drive(t, durationS, p.options.connections, rate),
    }));
    p.log(`federation: every side at an equal ${rate} req/s, rounds started at load ≤ ${SETTLED_START_LOAD}`);
    const equal = await runRounds(paced, { ...p.options, quietLoad: SETTLED_START_LOAD }, (line) =>
      p.log(`federation at ${rate} req/s: ${line}`),
    );
    result.equalRate = {
      rate,
      sides: paced.map((t) => summarizeSide(equal.rounds, t.name)),
      comparisons: paced.slice(1).map((t) => compare(equal.rounds, paced[0]!.name, t.name)),
      rounds: equal.rounds,
      failures: equal.failures,
    };
    return result;
  } finally {
    await Promise.all([hive?.stop(), apollo?.stop(), subgraphs.stop()]);
    tracker.forget();
  }
}

/** The comparison as two small tables: at saturation (throughput), and at an equal rate (the goal's CPU ratio). */
export function printFederation(result: FederationResult, write: (s: string) => void): void {
  write('\ncross-subgraph mix (3 queries in turn): our /graphql vs gateways over the HTTP subgraphs\n');
  write('  saturated (every connection busy, which alone keeps 2 cores at load 2 or more; not judged):\n');
  printRounds(result, write, () => '');
  const equal = result.equalRate;
  if (!equal) return;
  write(`  at an equal ${equal.rate} req/s per side (rounds started at load ≤ ${SETTLED_START_LOAD}):\n`);
  printRounds(equal, write, (c) =>
    c.baseline === 'Hive Gateway'
      ? `  goal ≥ ${HIVE_CPU_GOAL}× CPU at load ≤ ${JUDGED_AT_LOAD}: ${hiveVerdict(c, equal.rounds)}`
      : '',
  );
}

function printRounds(
  result: Pick<FederationResult, 'sides' | 'comparisons' | 'rounds' | 'failures'>,
  write: (s: string) => void,
  goal: (c: Comparison) => string,
): void {
  for (const s of result.sides) {
    write(
      `    ${s.name.padEnd(16)} ${s.rps.median.toFixed(0).padStart(7)} req/s   p50/p99 ${s.p50}/${s.p99} ms   ` +
        `${formatSpread(s.cpuMsPerRequest)} CPU ms/request (process tree)\n`,
    );
  }
  for (const c of result.comparisons) {
    write(
      `    our /graphql ÷ ${c.baseline}: req/s ${formatSpread(c.rps)}×; ${formatSpread(c.cpu)}× less CPU per request${goal(c)}\n`,
    );
  }
  for (const f of result.failures) {
    write(`    ${f.side} FAILED in ${f.round === 0 ? 'the warm-up' : `round ${f.round}`}: ${f.error}\n`);
  }
  write(
    `    medians (min–max) of each round's own ratio over ${result.rounds.length} rounds; load average (1 min) per round ` +
      `(start→end): ${result.rounds.map((r) => `${r.loadAverage[0]!.toFixed(2)}→${r.loadAverageAtEnd[0]!.toFixed(2)}`).join(' ')}\n`,
  );
}
