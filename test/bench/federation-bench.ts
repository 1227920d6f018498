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
import { type ChildServer, startChildServer } from './child-server.js';
import { processTreeCpuSeconds } from './process-cpu.js';

/**
 * The cross-subgraph mix of issue 13, sent in turn on every connection: ENS profile → wallet (balances) → Farcaster
 * user; ENS names with token prices; a Farcaster user → its verified wallets → their primary ENS names.
 */
export const CROSS_SUBGRAPH_MIX: readonly string[] = [
  '{ ensProfile(name: "alice.eth") { name address avatar records { key value } wallet { address primaryName balance { symbol balance tokens { symbol balance priceUsd } } farcasterUser { fid username displayName followers verifications } } } }',
  '{ ensProfiles(names: ["alice.eth", "bob.eth", "carol.eth"]) { name address wallet { primaryName } } tokenPrices(symbols: ["ETH", "USDC", "BTC"]) { symbol price change24h } }',
  '{ farcasterUser(identifier: "alice") { fid username verifiedWallets { address primaryName } } }',
];

export interface FederationSide {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  roundsRps: number[];
  /**
   * CPU milliseconds the side's whole process tree spent per request (median over the rounds): the server and its
   * chains, or the gateway and every subgraph with theirs. Unlike req/s it does not move with other load on the machine.
   */
  cpuMsPerRequest: number;
}

export interface FederationResult {
  mix: readonly string[];
  sides: FederationSide[];
  /** Our /graphql req/s ÷ each other side's, median over the rounds (same round, same machine load). */
  ratios: Record<string, number>;
  /** Each other side's CPU per request ÷ ours: how many times less machine our /graphql needs for the same answers. */
  cpuRatios: Record<string, number>;
}

interface Target {
  name: string;
  /** The GraphQL endpoint. */
  url: string;
  /** The processes answering it, with their descendants: what its CPU is measured over. */
  pids: number[];
}

interface Run {
  result: autocannon.Result;
  cpuSeconds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

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

async function drive(target: Target, durationS: number, connections: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections,
    duration: durationS,
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
 * processes started by `npm run subgraph`, on the same query mix, in alternating rounds. Every side's data must be
 * byte-identical to ours before anything is measured.
 */
export async function benchFederation(p: {
  server: ChildServer;
  scratch: string;
  durationS: number;
  rounds: number;
  warmupS: number;
  connections: number;
  log: (line: string) => void;
}): Promise<FederationResult> {
  p.log(`federation: starting the ${SUBGRAPH_MODULES.length} subgraphs (npm run subgraph)…`);
  const subgraphs = await startSubgraphProcesses({
    names: SUBGRAPH_MODULES.map((m) => m.name),
    env: { ...process.env, LOG_LEVEL: 'warn' },
    dataDirRoot: join(p.scratch, 'subgraphs'),
  });
  let hive: RunningProcess | undefined;
  let apollo: ChildServer | undefined;
  try {
    const supergraphFile = join(p.scratch, 'supergraph.graphql');
    await writeSupergraph(new Map([...subgraphs.subgraphs].map(([name, s]) => [name, s.url])), supergraphFile);
    p.log('federation: starting Hive Gateway and @apollo/gateway…');
    hive = await startHiveGateway({ supergraphFile, env: { NODE_ENV: 'production' } });
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
    const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
    p.log('federation: warm-up');
    for (const t of targets) await drive(t, p.warmupS, p.connections);
    for (let round = 1; round <= p.rounds; round++) {
      p.log(`federation: round ${round}/${p.rounds}`);
      for (const t of targets) {
        const cpuBefore = processTreeCpuSeconds(t.pids);
        const result = await drive(t, p.durationS / p.rounds, p.connections);
        runs.get(t.name)!.push({ result, cpuSeconds: processTreeCpuSeconds(t.pids) - cpuBefore });
      }
    }
    const sides = targets.map((t): FederationSide => {
      const r = runs.get(t.name)!;
      return {
        name: t.name,
        rps: median(r.map(({ result }) => result.requests.total / result.duration)),
        p50: median(r.map(({ result }) => result.latency.p50)),
        p99: median(r.map(({ result }) => result.latency.p99)),
        roundsRps: r.map(({ result }) => result.requests.total / result.duration),
        cpuMsPerRequest: median(r.map(({ result, cpuSeconds }) => (1000 * cpuSeconds) / result.requests.total)),
      };
    });
    const ours = sides[0]!;
    const others = sides.slice(1);
    const ratios = Object.fromEntries(
      others.map((s) => [s.name, median(ours.roundsRps.map((rps, i) => rps / s.roundsRps[i]!))]),
    );
    const cpuRatios = Object.fromEntries(others.map((s) => [s.name, s.cpuMsPerRequest / ours.cpuMsPerRequest]));
    return { mix: CROSS_SUBGRAPH_MIX, sides, ratios, cpuRatios };
  } finally {
    await Promise.all([hive?.stop(), apollo?.stop(), subgraphs.stop()]);
  }
}

/** The comparison as a small table, with the ratios the issue asks for. */
export function printFederation(result: FederationResult, write: (s: string) => void): void {
  write('\ncross-subgraph mix (3 queries in turn): our /graphql vs gateways over the HTTP subgraphs\n');
  for (const s of result.sides) {
    write(
      `  ${s.name.padEnd(16)} ${s.rps.toFixed(0).padStart(7)} req/s   p50/p99 ${s.p50}/${s.p99} ms   ` +
        `${s.cpuMsPerRequest.toFixed(2)} CPU ms/request (process tree)\n`,
    );
  }
  for (const [name, ratio] of Object.entries(result.ratios)) {
    const cpu = result.cpuRatios[name]!;
    write(`  our /graphql ÷ ${name}: ${ratio.toFixed(2)}× req/s; ${cpu.toFixed(2)}× less CPU per request\n`);
  }
}
