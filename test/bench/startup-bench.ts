import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { processCpuSeconds } from './process-cpu.js';
import { spread } from './side-rounds.js';

/** One `npm start` (the bundle it runs), from spawn to the first 200 from /api/health. */
interface ReadySample {
  readyMs: number;
  /** utime + stime of the server process when it first answered (its own work, whatever else the machine did). */
  serverCpuMs: number;
}

export interface StartupResult {
  loadAverage: number[];
  ready: { medianMs: number; minMs: number; maxMs: number; medianCpuMs: number; samples: ReadySample[] };
  busyPort: { exitCode: number | null; ms: number; stderr: string };
  suite: { wallMs: number; exitCode: number | null; files: number; tests: number; failed: number } | null;
}

const median = (values: number[]) => spread(values).median;

async function readyOnce(main: string): Promise<ReadySample> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-startup-'));
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) return { readyMs: performance.now() - startedAt, serverCpuMs: processCpuSeconds(child.pid!) * 1000 };
      if (performance.now() - startedAt > 120_000) throw new Error('the server was not ready within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
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
 * `npm run bench -- startup`: how long `npm start` takes to answer /api/health (median of BENCH_STARTUP_RUNS, 5),
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
  await readyOnce(p.main); // warm the file cache: the first start after a build reads everything from disk
  const samples: ReadySample[] = [];
  for (let i = 0; i < p.runs; i++) {
    samples.push(await readyOnce(p.main));
    p.log(`start ${i + 1}/${p.runs}: ready in ${Math.round(samples.at(-1)!.readyMs)} ms`);
  }
  const busyPort = await busyPortOnce(p.main);
  let suite: StartupResult['suite'] = null;
  if (p.withSuite) {
    p.log('running the test suite (npx vitest run)…');
    suite = await suiteOnce(p.repoRoot);
  }
  const ready = samples.map((s) => s.readyMs);
  return {
    loadAverage,
    ready: {
      medianMs: median(ready),
      minMs: Math.min(...ready),
      maxMs: Math.max(...ready),
      medianCpuMs: median(samples.map((s) => s.serverCpuMs)),
      samples,
    },
    busyPort,
    suite,
  };
}

export function printStartup(r: StartupResult, write: (text: string) => void): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  write(`\nstartup (${cpus().length} CPUs, load average ${r.loadAverage.map((l) => l.toFixed(2)).join(' ')})\n`);
  write(
    `npm start → GET /api/health 200: median ${s(r.ready.medianMs)} (${s(r.ready.minMs)}–${s(r.ready.maxMs)} over ` +
      `${r.ready.samples.length} starts), server CPU median ${s(r.ready.medianCpuMs)}; goal ≤ 2 s quiet: ` +
      `${r.ready.medianMs <= 2000 ? 'PASS' : 'FAIL'}\n`,
  );
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
