import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, type Hex, namehash, parseAbi, toHex } from 'viem';
import { packetToBytes } from 'viem/ens';
import { freePort } from '../helpers/free-port.js';
import { killGroupNow, onBenchExit } from './bench-exit.js';
import { CROSS_SUBGRAPH_MIX } from './federation-bench.js';
import { processCpuSeconds, processTreeCpuSeconds } from './process-cpu.js';
import { JUDGED_AT_LOAD, spread } from './side-rounds.js';

/** One start, from spawn to the first 200 from /api/health. */
interface ReadySample {
  readyMs: number;
  /** utime + stime of the server process (node dist/bundle/main.mjs) when it first answered: its own work. */
  serverCpuMs: number;
  /** The same for every process of the start (npm and the shell it runs, for `npm start`). */
  treeCpuMs: number;
  /** The machine's load average (1 min) when this start began. */
  load1: number;
  /** Each surface's first request, FIRST_REQUEST_AFTER_MS after ready (the node entry's starts only). */
  firstRequests?: FirstRequest[];
}

/** One surface's first request after a start: wall time to its whole answer. */
interface FirstRequest {
  surface: string;
  ms: number;
  status: number;
  /** Whether it was the start's very first request (the surfaces take turns at going first). */
  first: boolean;
}

/** How long after ready the first requests are sent: the post-listen warm-ups (300 ms, 1.5 s) have run by then. */
const FIRST_REQUEST_AFTER_MS = 2_000;

const ccipAbi = parseAbi([
  'function resolve(bytes name, bytes data) view returns (bytes result, uint64 expires, bytes sig)',
  'function addr(bytes32 node) view returns (address)',
]);
/** The callData an OffchainResolver puts in its OffchainLookup for a subname's address (the embedded seed's). */
const CCIP_LOOKUP: Hex = encodeFunctionData({
  abi: ccipAbi,
  functionName: 'resolve',
  args: [
    toHex(packetToBytes('dave.offchain.eth')),
    encodeFunctionData({ abi: ccipAbi, functionName: 'addr', args: [namehash('dave.offchain.eth')] }),
  ],
});

/** The first request of each surface a user meets: REST, GraphQL across subgraphs, MCP, CCIP-Read. */
const FIRST_REQUESTS: { surface: string; path: string; init?: RequestInit }[] = [
  { surface: 'REST GET /api/ens/resolve/alice.eth', path: '/api/ens/resolve/alice.eth' },
  {
    surface: 'GraphQL cross-subgraph (ensProfile)',
    path: '/graphql',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: CROSS_SUBGRAPH_MIX[0] }),
    },
  },
  {
    surface: 'MCP tools/call get_token_price',
    path: '/mcp',
    init: {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_token_price', arguments: { symbol: 'ETH' } },
      }),
    },
  },
  { surface: 'CCIP-Read GET /ccip/{sender}/{data}.json', path: `/ccip/${'0x'.padEnd(42, '1')}/${CCIP_LOOKUP}.json` },
];

/** The surfaces' first requests, in turn from the `start`-th (so each goes first in some starts). */
async function firstRequests(base: string, start: number): Promise<FirstRequest[]> {
  await new Promise((resolve) => setTimeout(resolve, FIRST_REQUEST_AFTER_MS));
  const timed: FirstRequest[] = [];
  const from = start % FIRST_REQUESTS.length;
  for (const r of [...FIRST_REQUESTS.slice(from), ...FIRST_REQUESTS.slice(0, from)]) {
    const startedAt = performance.now();
    const res = await fetch(`${base}${r.path}`, r.init);
    await res.arrayBuffer();
    timed.push({
      surface: r.surface,
      ms: performance.now() - startedAt,
      status: res.status,
      first: timed.length === 0,
    });
  }
  return timed;
}

/** How a start is spawned: what `npm start` runs, through npm as a user types it, or the node entry alone. */
export type StartMethod = 'npm start' | 'node dist/bundle/main.mjs';

export interface ReadyFigures {
  method: StartMethod;
  medianMs: number;
  minMs: number;
  maxMs: number;
  medianCpuMs: number;
  medianTreeCpuMs: number;
  samples: ReadySample[];
}

export interface StartupResult {
  loadAverage: number[];
  /** Each method's starts (taken in turn, so a change in the machine's load weighs on both alike). */
  ready: ReadyFigures[];
  busyPort: { exitCode: number | null; ms: number; stderr: string };
  suite: { wallMs: number; exitCode: number | null; files: number; tests: number; failed: number } | null;
}

const median = (values: number[]) => spread(values).median;

/** The server process of a start: the spawned node itself, or the node process `npm start` execs under npm. */
function serverPid(rootPid: number): number | undefined {
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.mjs')) return pid;
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      if (children) stack.push(...children.split(' ').map(Number));
    } catch {
      // Gone, or no /proc.
    }
  }
  return undefined;
}

async function readyOnce(main: string, method: StartMethod, repoRoot: string, start = 0): Promise<ReadySample> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-startup-'));
  const port = await freePort();
  const load1 = loadavg()[0]!;
  const startedAt = performance.now();
  const [command, args] = method === 'npm start' ? ['npm', ['start', '--silent']] : [process.execPath, [main]];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    // Its own process group: the server (and its chains) are stopped with whatever npm started.
    detached: true,
  });
  const forget = onBenchExit({ stop: async () => killGroupNow(child.pid!), killNow: () => killGroupNow(child.pid!) });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${method} exited with ${child.exitCode} before it was ready`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) {
        const readyMs = performance.now() - startedAt;
        const server = serverPid(child.pid!) ?? child.pid!;
        const sample: ReadySample = {
          readyMs,
          serverCpuMs: processCpuSeconds(server) * 1000,
          treeCpuMs: processTreeCpuSeconds([child.pid!]) * 1000,
          load1,
        };
        if (method === 'node dist/bundle/main.mjs')
          sample.firstRequests = await firstRequests(`http://127.0.0.1:${port}`, start);
        return sample;
      }
      if (performance.now() - startedAt > 120_000) throw new Error(`${method} was not ready within 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Gone.
    }
    const timer = setTimeout(() => killGroupNow(child.pid!), 10_000);
    await exited;
    clearTimeout(timer);
    killGroupNow(child.pid!);
    forget();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function figures(method: StartMethod, samples: ReadySample[]): ReadyFigures {
  const ready = samples.map((s) => s.readyMs);
  return {
    method,
    medianMs: median(ready),
    minMs: Math.min(...ready),
    maxMs: Math.max(...ready),
    medianCpuMs: median(samples.map((s) => s.serverCpuMs)),
    medianTreeCpuMs: median(samples.map((s) => s.treeCpuMs)),
    samples,
  };
}

async function busyPortOnce(main: string): Promise<StartupResult['busyPort']> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
  const { port } = holder.address() as { port: number };
  const startedAt = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ms = performance.now() - startedAt;
  holder.close();
  return { exitCode, ms, stderr: stderr.trim() };
}

async function suiteOnce(repoRoot: string): Promise<NonNullable<StartupResult['suite']>> {
  const report = join(mkdtempSync(join(tmpdir(), 'api-suite-')), 'report.json');
  const startedAt = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallMs = performance.now() - startedAt;
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    numTotalTestSuites: number;
    numTotalTests: number;
    numFailedTests: number;
    testResults: unknown[];
  };
  return { wallMs, exitCode, files: json.testResults.length, tests: json.numTotalTests, failed: json.numFailedTests };
}

/**
 * `npm run bench -- startup`: how long a start takes to answer /api/health, spawned as `npm start` (npm, then the
 * node process its script execs) and as the node entry alone, taken in turn (median of BENCH_STARTUP_RUNS each, 5),
 * how fast a busy port is refused, and the test suite's wall time (BENCH_SUITE=0 leaves it out). The machine's load
 * average is printed with them: on a busy machine the figures are not comparable.
 */
export async function benchStartup(p: {
  main: string;
  repoRoot: string;
  runs: number;
  withSuite: boolean;
  log: (line: string) => void;
}): Promise<StartupResult> {
  const loadAverage = loadavg();
  const methods: StartMethod[] = ['npm start', 'node dist/bundle/main.mjs'];
  // Warms the file cache: the first start after a build reads everything from disk.
  await readyOnce(p.main, 'node dist/bundle/main.mjs', p.repoRoot);
  const samples = new Map<StartMethod, ReadySample[]>(methods.map((m) => [m, []]));
  for (let i = 0; i < p.runs; i++) {
    for (const method of i % 2 === 0 ? methods : [...methods].reverse()) {
      const sample = await readyOnce(p.main, method, p.repoRoot, i);
      samples.get(method)!.push(sample);
      p.log(
        `${method} ${i + 1}/${p.runs}: ready in ${Math.round(sample.readyMs)} ms, server CPU ` +
          `${Math.round(sample.serverCpuMs)} ms (load ${sample.load1.toFixed(2)})`,
      );
    }
  }
  const busyPort = await busyPortOnce(p.main);
  let suite: StartupResult['suite'] = null;
  if (p.withSuite) {
    p.log('running the test suite (npx vitest run)…');
    suite = await suiteOnce(p.repoRoot);
  }
  return {
    loadAverage,
    ready: methods.map((m) => figures(m, samples.get(m)!)),
    busyPort,
    suite,
  };
}

/** The goal is judged at load ≤ 2 only: on a busier machine the figures are printed but not judged. */
function verdict(f: ReadyFigures): string {
  if (f.samples.some((x) => x.load1 > JUDGED_AT_LOAD)) return `NOT JUDGED (load above ${JUDGED_AT_LOAD})`;
  return f.medianMs <= 2000 && f.medianCpuMs <= 1200 ? 'PASS' : 'FAIL';
}

export function printStartup(r: StartupResult, write: (text: string) => void): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  write(`\nstartup (${cpus().length} CPUs, load average ${r.loadAverage.map((l) => l.toFixed(2)).join(' ')})\n`);
  for (const f of r.ready) {
    const loads = f.samples.map((x) => x.load1.toFixed(2)).join(' ');
    write(
      `${f.method} → GET /api/health 200: median ${s(f.medianMs)} (${s(f.minMs)}–${s(f.maxMs)} over ` +
        `${f.samples.length} starts), server CPU median ${s(f.medianCpuMs)} (all its processes ` +
        `${s(f.medianTreeCpuMs)}, its chains included); goal ≤ 2 s and ≤ 1.2 s CPU at load ≤ 2: ` +
        `${verdict(f)}; load (1 min) per start: ${loads}\n`,
    );
  }
  printFirstRequests(r, write);
  write(
    `busy PORT: exit ${r.busyPort.exitCode} after ${s(r.busyPort.ms)} (goal < 1 s: ${r.busyPort.ms < 1000 && r.busyPort.exitCode === 1 ? 'PASS' : 'FAIL'}): ${r.busyPort.stderr}\n`,
  );
  if (r.suite) {
    write(
      `npm test: ${s(r.suite.wallMs)} wall, exit ${r.suite.exitCode}, ${r.suite.files} files, ${r.suite.tests} tests, ` +
        `${r.suite.failed} failed; goal ≤ 180 s quiet: ${r.suite.wallMs <= 180_000 ? 'PASS' : 'FAIL'}\n`,
    );
  }
}

/** Each surface's first request after ready, median over the node entry's starts; goal ≤ 50 ms, judged at load ≤ 2. */
function printFirstRequests(r: StartupResult, write: (text: string) => void): void {
  const samples = r.ready.flatMap((f) => f.samples).filter((x) => x.firstRequests !== undefined);
  if (samples.length === 0) return;
  const judged = samples.every((x) => x.load1 <= JUDGED_AT_LOAD);
  write(
    `first request of each surface, ${FIRST_REQUEST_AFTER_MS / 1000} s after ready (node entry, ${samples.length} starts):\n`,
  );
  for (const { surface } of FIRST_REQUESTS) {
    const of = samples.map((x) => x.firstRequests!.find((f) => f.surface === surface)!);
    const ms = of.map((f) => f.ms);
    const statuses = [...new Set(of.map((f) => f.status))].join(',');
    const m = median(ms);
    const asFirst = of.filter((f) => f.first).map((f) => `${f.ms.toFixed(1)} ms`);
    const result =
      statuses !== '200'
        ? `FAIL (status ${statuses})`
        : !judged
          ? `NOT JUDGED (load above ${JUDGED_AT_LOAD})`
          : m <= 50
            ? 'PASS'
            : 'FAIL';
    write(
      `  ${surface}: median ${m.toFixed(1)} ms (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}), ` +
        `${asFirst.length > 0 ? `as the very first request ${asFirst.join(', ')}, ` : ''}status ${statuses}; goal ≤ 50 ms: ${result}\n`,
    );
  }
}
