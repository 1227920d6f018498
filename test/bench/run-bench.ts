import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BareRouteSpec } from './bare-server.js';
import { BENCH_ROUTES, type BenchRoute } from './bench-routes.js';
import { type ChildServer, startChildServer, stopAllChildServers } from './child-server.js';
import { benchFederation, type FederationResult, printFederation } from './federation-bench.js';

// `npm run bench [-- <name filter>]`: the service and a bare fastify returning the same bytes, each in its own
// process, driven by autocannon from this one — never both at once. Then (filter absent or "federation") the
// cross-subgraph mix through the service's /graphql against Hive Gateway and @apollo/gateway over the subgraphs
// served alone (federation-bench.ts). After a warm-up of each, the two take turns
// in short rounds, so that a change in the machine's load (other processes) weighs on both sides alike; the
// table shows medians over the rounds. Knobs: BENCH_DURATION (measured seconds per side, default 8),
// BENCH_ROUNDS (4), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (50), BENCH_NODE_ARGS (extra node flags for the
// service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").

const distRoot = fileURLToPath(new URL('../../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_SCRIPT = join(distRoot, 'src/server/main.js');
const BARE_SCRIPT = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const RESULTS_FILE = join(repoRoot, 'bench-results.json');

const options = {
  durationS: numberEnv('BENCH_DURATION', 8),
  rounds: Math.round(numberEnv('BENCH_ROUNDS', 4)),
  warmupS: numberEnv('BENCH_WARMUP', 2),
  connections: Math.round(numberEnv('BENCH_CONNECTIONS', 50)),
  pipelining: 1,
};

interface Captured {
  status: number;
  contentType: string;
  body: Buffer;
  /** The response headers a handler sets (those Node and fastify add to every answer left out). */
  headers: Record<string, string>;
  /** X-RateLimit-Tier, or 'free' when the access layer sent no rate-limit headers. */
  tier: string;
  globalUsed: number | undefined;
}

/** One side's numbers: medians over the rounds (latency in ms). */
interface Measured {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  requests: number;
  roundsRps: number[];
}

interface RouteResult {
  name: string;
  method: string;
  path: string;
  tier: string;
  status: number;
  contentType: string;
  bytes: number;
  /** Response headers besides those fastify adds itself (request id, cache control, rate-limit headers …). */
  headerCount: number;
  goal: number | null;
  /** Bare fastify sending the service's whole answer: status, the same headers and the same body. */
  bare: Measured;
  /** Bare fastify sending only the service's body (with its content type). */
  bareBodyOnly: Measured;
  server: Measured;
  /** Median over the rounds of service req/s ÷ same-answer bare req/s in the same round: the goal's ratio. */
  ratio: number;
  roundsRatio: number[];
  /** The same against the body-only bare server: what the service's headers cost is charged to it too. */
  ratioBodyOnly: number;
  pass: boolean | null;
  /** Counted tiers: how far the store's global daily counter moved during the load, and requests autocannon sent. */
  counted: { counterDelta: number; requestsSent: number } | null;
}

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function requestInit(route: BenchRoute): { method: string; headers: Record<string, string>; body?: string } {
  const headers = { ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}), ...route.headers };
  return { method: route.method, headers, ...(route.body !== undefined ? { body: route.body } : {}) };
}

/** Headers every fastify answer carries on its own (or that describe the body): the bare server adds them itself. */
const FRAMEWORK_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

async function capture(baseUrl: string, route: BenchRoute): Promise<Captured> {
  const res = await fetch(`${baseUrl}${route.path}`, requestInit(route));
  const body = Buffer.from(await res.arrayBuffer());
  const used = res.headers.get('x-ratelimit-global-used');
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!FRAMEWORK_HEADERS.has(name)) headers[name] = value;
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    body,
    headers,
    tier: res.headers.get('x-ratelimit-tier') ?? 'free',
    globalUsed: used === null ? undefined : Number(used),
  };
}

/** One autocannon run; any non-2xx, error or timeout fails the whole benchmark (a cheap 429 is no result). */
async function drive(url: string, route: BenchRoute, label: string, durationS: number): Promise<autocannon.Result> {
  const init = requestInit(route);
  const result = await autocannon({
    url: `${url}${route.path}`,
    method: init.method,
    headers: init.headers,
    body: init.body,
    connections: options.connections,
    pipelining: options.pipelining,
    duration: durationS,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(' ');
    throw new Error(
      `${label}, ${route.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `[${codes}] — a benchmark that counts refused or failed requests measures nothing`,
    );
  }
  return result;
}

function summarize(runs: autocannon.Result[]): Measured {
  const roundsRps = runs.map((r) => r.requests.total / r.duration);
  return {
    rps: median(roundsRps),
    p50: median(runs.map((r) => r.latency.p50)),
    p90: median(runs.map((r) => r.latency.p90)),
    p99: median(runs.map((r) => r.latency.p99)),
    requests: runs.reduce((n, r) => n + r.requests.total, 0),
    roundsRps,
  };
}

async function benchRoute(server: ChildServer, route: BenchRoute, scratch: string): Promise<RouteResult> {
  const captured = await capture(server.url, route);
  if (captured.status < 200 || captured.status >= 300) {
    throw new Error(
      `${route.name}: the service answered ${captured.status}: ${captured.body.toString('utf8', 0, 500)}`,
    );
  }
  const spec: BareRouteSpec = {
    method: route.method,
    path: route.path.split('?')[0]!,
    status: captured.status,
    contentType: captured.contentType,
    bodyBase64: captured.body.toString('base64'),
  };
  const startBare = async (label: string, headers: Record<string, string> | undefined) => {
    const specFile = join(scratch, `${label}.json`);
    writeFileSync(specFile, JSON.stringify({ ...spec, headers }));
    const bare = await startChildServer({ label, script: BARE_SCRIPT, args: [specFile], env: process.env });
    const check = await capture(bare.url, route);
    if (check.status !== captured.status || !check.body.equals(captured.body)) {
      await bare.stop();
      throw new Error(`${route.name}: the ${label} server does not return the service's bytes`);
    }
    return bare;
  };
  const bare = await startBare('bare', captured.headers);
  const bareBodyOnly = await startBare('bare-body-only', undefined).catch(async (err) => {
    await bare.stop();
    throw err;
  });
  const bareRuns: autocannon.Result[] = [];
  const bodyOnlyRuns: autocannon.Result[] = [];
  const serverRuns: autocannon.Result[] = [];
  let serverSent = 0;
  try {
    process.stderr.write(`bench: ${route.name} — warm-up\n`);
    await drive(bare.url, route, 'bare fastify', options.warmupS);
    await drive(bareBodyOnly.url, route, 'bare fastify (body only)', options.warmupS);
    serverSent += (await drive(server.url, route, 'service', options.warmupS)).requests.sent;
    const roundS = options.durationS / options.rounds;
    for (let round = 1; round <= options.rounds; round++) {
      process.stderr.write(`bench: ${route.name} — round ${round}/${options.rounds}\n`);
      bareRuns.push(await drive(bare.url, route, 'bare fastify', roundS));
      bodyOnlyRuns.push(await drive(bareBodyOnly.url, route, 'bare fastify (body only)', roundS));
      const run = await drive(server.url, route, 'service', roundS);
      // Includes the requests still in flight when a run stopped: the service counted those too.
      serverSent += run.requests.sent;
      serverRuns.push(run);
    }
  } finally {
    await Promise.all([bare.stop(), bareBodyOnly.stop()]);
  }

  let counted: RouteResult['counted'] = null;
  if (captured.globalUsed !== undefined) {
    const after = await capture(server.url, route);
    counted = { counterDelta: (after.globalUsed ?? 0) - captured.globalUsed - 1, requestsSent: serverSent };
  }
  const bareMeasured = summarize(bareRuns);
  const bodyOnlyMeasured = summarize(bodyOnlyRuns);
  const serverMeasured = summarize(serverRuns);
  const roundsRatio = serverMeasured.roundsRps.map((rps, i) => rps / bareMeasured.roundsRps[i]!);
  const ratio = median(roundsRatio);
  const ratioBodyOnly = median(serverMeasured.roundsRps.map((rps, i) => rps / bodyOnlyMeasured.roundsRps[i]!));
  return {
    name: route.name,
    method: route.method,
    path: route.path,
    tier: captured.tier,
    status: captured.status,
    contentType: captured.contentType,
    bytes: captured.body.length,
    headerCount: Object.keys(captured.headers).length,
    goal: route.goal ?? null,
    bare: bareMeasured,
    bareBodyOnly: bodyOnlyMeasured,
    server: serverMeasured,
    ratio,
    roundsRatio,
    ratioBodyOnly,
    pass: route.goal === undefined ? null : ratio >= route.goal,
    counted,
  };
}

function printTable(results: RouteResult[]): void {
  const rows = [
    [
      'route',
      'tier',
      'headers',
      'bytes',
      'bare req/s',
      'service req/s',
      'ratio',
      'body-only bare',
      'ratio',
      'bare p50/p99 ms',
      'service p50/p99 ms',
      'goal',
      'result',
    ],
    ...results.map((r) => [
      r.name,
      r.tier,
      String(r.headerCount),
      String(r.bytes),
      r.bare.rps.toFixed(0),
      r.server.rps.toFixed(0),
      r.ratio.toFixed(2),
      r.bareBodyOnly.rps.toFixed(0),
      r.ratioBodyOnly.toFixed(2),
      `${r.bare.p50}/${r.bare.p99}`,
      `${r.server.p50}/${r.server.p99}`,
      r.goal === null ? '—' : `≥ ${r.goal}`,
      r.pass === null ? 'measured' : r.pass ? 'PASS' : 'FAIL',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${line(rows[0]!)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows.slice(1)) process.stdout.write(`${line(row)}\n`);
  process.stdout.write(
    `medians over ${options.rounds} alternating rounds of ${(options.durationS / options.rounds).toFixed(1)} s per side, ` +
      `${options.connections} connections. bare = fastify answering the service's bytes (status, headers, body); ` +
      `ratio = service req/s ÷ bare req/s (the goal's). body-only bare = fastify answering the body alone; its ratio ` +
      `also charges the service for writing its headers.\n`,
  );
  for (const r of results) {
    if (r.counted) {
      process.stdout.write(
        `${r.name}: the store's daily counter moved ${r.counted.counterDelta} for ${r.counted.requestsSent} requests sent\n`,
      );
    }
  }
}

async function main(): Promise<void> {
  const filter = process.argv[2];
  const routes = filter ? BENCH_ROUTES.filter((r) => r.name.includes(filter)) : BENCH_ROUTES;
  const withFederation = !filter || filter === 'federation';
  if (routes.length === 0 && !withFederation) throw new Error(`no bench route matches "${filter}"`);
  const scratch = mkdtempSync(join(tmpdir(), 'api-bench-'));
  const dataDir = join(scratch, 'data');
  process.stderr.write(
    `bench: ${routes.length} route(s), ${options.connections} connections, ${options.warmupS} s warm-up + ` +
      `${options.durationS} s per side; ${cpus().length} CPUs, node ${process.version}\nbench: starting the service…\n`,
  );
  const stopAll = () => {
    void stopAllChildServers().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);
  let server: ChildServer | undefined;
  const results: RouteResult[] = [];
  let federation: FederationResult | undefined;
  try {
    server = await startChildServer({
      label: 'service',
      script: SERVER_SCRIPT,
      nodeArgs: process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // Every call still goes through identify → atomic counters in the store → rate-limit headers;
        // it just never reaches a limit, so each answer is the 200 being measured and not a cheap 429.
        ANONYMOUS_DAILY_LIMIT: '1000000000',
        ANONYMOUS_PER_MINUTE_LIMIT: '1000000000',
      },
    });
    process.stderr.write(`bench: service at ${server.url}\n`);
    for (const route of routes) results.push(await benchRoute(server, route, scratch));
    if (withFederation) {
      federation = await benchFederation({
        server,
        scratch,
        ...options,
        log: (line) => process.stderr.write(`bench: ${line}\n`),
      });
    }
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }

  if (results.length > 0) printTable(results);
  if (federation) printFederation(federation, (line) => process.stdout.write(line));
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        options,
        results,
        federation,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`\nwritten ${RESULTS_FILE}\n`);
  const missed = results.filter((r) => r.pass === false);
  if (missed.length > 0) {
    process.stderr.write(`bench: ${missed.map((r) => r.name).join(', ')} missed the goal\n`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
