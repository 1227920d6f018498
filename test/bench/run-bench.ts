import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BareRouteSpec } from './bare-server.js';
import { BENCH_ROUTES, type BenchRequest, type BenchRoute } from './bench-routes.js';
import { type ChildServer, startChildServer, stopAllChildServers } from './child-server.js';
import { benchFederation, type FederationResult, printFederation } from './federation-bench.js';
import {
  type BenchSide,
  type Comparison,
  compare,
  formatSpread,
  type Round,
  runRounds,
  type SideSummary,
  summarizeSide,
} from './side-rounds.js';
import { benchStartup, printStartup } from './startup-bench.js';

// `npm run bench -- startup`: time from `npm start` to a 200 from /api/health, a busy port's refusal, and the test
// suite's wall time (startup-bench.ts). `npm run bench [-- <name filter>]`: the service and a bare fastify returning the same bytes, each in its own
// process, driven by autocannon from this one — never both at once. Then (filter absent or "federation") the
// cross-subgraph mix through the service's /graphql against Hive Gateway and @apollo/gateway over the subgraphs
// served alone (federation-bench.ts). After a warm-up of each, the sides take turns in rounds of --seconds each
// (default 10), in an order rotated every round, so that a change in the machine's load (other processes) weighs on
// every side alike; CPU is read once a side has drained (side-rounds.ts). Tables show each round's own ratio as median
// (min–max) and the load average of every round. Flags: --rounds (5), --seconds (10), --warmup (3), --connections
// (50); BENCH_NODE_ARGS adds node flags to the service (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").

const distRoot = fileURLToPath(new URL('../../', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// What `npm start` runs: the bundled server.
const SERVER_SCRIPT = join(distRoot, 'bundle/main.mjs');
const BARE_SCRIPT = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const RESULTS_FILE = join(repoRoot, 'bench-results.json');
const STARTUP_RESULTS_FILE = join(repoRoot, 'bench-results-startup.json');

/** Rounds shorter than this measure the JIT and the machine's noise more than the server. */
const MIN_ROUND_SECONDS = 10;

/** `--rounds 3 --seconds 10 price gas` → the flags' values and the positional filters. */
function parseArgs(argv: readonly string[]): {
  filters: string[];
  rounds: number;
  seconds: number;
  warmupS: number;
  connections: number;
} {
  const flags: Record<string, number> = { rounds: 5, seconds: MIN_ROUND_SECONDS, warmup: 3, connections: 50 };
  const filters: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      filters.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (!(name in flags)) throw new Error(`unknown flag --${name}: --rounds, --seconds, --warmup, --connections`);
    const raw = inline ?? argv[++i];
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${raw}`);
    flags[name] = value;
  }
  if (flags.seconds! < MIN_ROUND_SECONDS) {
    process.stderr.write(
      `bench: rounds of ${flags.seconds} s are under ${MIN_ROUND_SECONDS} s: figures will be noisy\n`,
    );
  }
  return {
    filters,
    rounds: Math.round(flags.rounds!),
    seconds: flags.seconds!,
    warmupS: flags.warmup!,
    connections: Math.round(flags.connections!),
  };
}

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

const args = parseArgs(process.argv.slice(2));
const options = { rounds: args.rounds, seconds: args.seconds, warmupS: args.warmupS, connections: args.connections };

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
  /** The service and each baseline over the rounds. */
  sides: SideSummary[];
  /** The service against its baseline (the goal's ratio), then against any further baseline. */
  comparisons: Comparison[];
  rounds: Round[];
  pass: boolean | null;
  /** Counted tiers: how far the store's global daily counter moved during the load, and requests autocannon sent. */
  counted: { counterDelta: number; requestsSent: number } | null;
}

function requestInit(route: BenchRequest): { method: string; headers: Record<string, string>; body?: string } {
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

async function capture(baseUrl: string, route: BenchRequest): Promise<Captured> {
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
async function drive(url: string, route: BenchRequest, label: string, durationS: number): Promise<autocannon.Result> {
  const init = requestInit(route);
  const result = await autocannon({
    url: `${url}${route.path}`,
    method: init.method,
    headers: init.headers,
    body: init.body,
    connections: options.connections,
    pipelining: 1,
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

/** The service on one request, as a side of the rounds (its CPU: the server process and its chains). */
function serviceSide(server: ChildServer, request: BenchRequest, name: string, sent: { count: number }): BenchSide {
  return {
    name,
    pids: [server.pid],
    drive: async (durationS) => {
      const result = await drive(server.url, request, name, durationS);
      sent.count += result.requests.sent;
      return result;
    },
  };
}

/** An MCP tools/call answer's text block: what its REST path answers as a body. */
function toolCallText(body: Buffer): string | undefined {
  const answer = JSON.parse(body.toString('utf8')) as { result?: { content?: { text?: string }[] } };
  return answer.result?.content?.[0]?.text;
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
  const started: ChildServer[] = [];
  const startBare = async (label: string, extra: Partial<BareRouteSpec>) => {
    const specFile = join(scratch, `${label}.json`);
    writeFileSync(specFile, JSON.stringify({ ...spec, ...extra }));
    const bare = await startChildServer({ label, script: BARE_SCRIPT, args: [specFile], env: process.env });
    started.push(bare);
    const check = await capture(bare.url, route);
    if (check.status !== captured.status || !check.body.equals(captured.body)) {
      throw new Error(`${route.name}: the ${label} server does not return the service's bytes`);
    }
    return bare;
  };
  const bareSide = (bare: ChildServer, name: string): BenchSide => ({
    name,
    pids: [bare.pid],
    drive: (durationS) => drive(bare.url, route, name, durationS),
  });
  const sent = { count: 0 };
  const service = serviceSide(server, route, 'service', sent);
  try {
    const baselines: BenchSide[] = [];
    const { baseline = 'fastify' } = route;
    if (baseline === 'fastify') {
      baselines.push(bareSide(await startBare('bare', { headers: captured.headers }), 'bare fastify'));
      baselines.push(bareSide(await startBare('bare-body-only', {}), 'bare fastify (body only)'));
    } else if (baseline === 'node:http') {
      const bare = await startBare('bare-node-http', { headers: captured.headers, engine: 'node:http' });
      baselines.push(bareSide(bare, 'bare node:http'));
    } else {
      const rest = await capture(server.url, baseline);
      if (toolCallText(captured.body) !== rest.body.toString('utf8')) {
        throw new Error(`${route.name}: the tool's text is not what ${baseline.name} answers`);
      }
      baselines.push(serviceSide(server, baseline, baseline.name, sent));
    }
    const rounds = await runRounds([service, ...baselines], options, (line) =>
      process.stderr.write(`bench: ${route.name} — ${line}\n`),
    );
    let counted: RouteResult['counted'] = null;
    if (captured.globalUsed !== undefined) {
      const after = await capture(server.url, route);
      counted = { counterDelta: (after.globalUsed ?? 0) - captured.globalUsed - 1, requestsSent: sent.count };
    }
    const comparisons = baselines.map((b) => compare(rounds, service.name, b.name));
    const ratio = comparisons[0]!.rps.median;
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
      sides: [service, ...baselines].map((s) => summarizeSide(rounds, s.name)),
      comparisons,
      rounds,
      pass: route.goal === undefined ? null : ratio >= route.goal,
      counted,
    };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}

function printRows(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${line(rows[0]!)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows.slice(1)) process.stdout.write(`${line(row)}\n`);
}

function printTable(results: RouteResult[]): void {
  const rows = [
    [
      'route',
      'tier',
      'bytes',
      'side',
      'req/s',
      'CPU ms/req',
      'p50/p99 ms',
      'req/s ratio',
      'CPU ratio',
      'goal',
      'result',
    ],
  ];
  for (const r of results) {
    r.sides.forEach((s, i) => {
      const c = i === 0 ? undefined : r.comparisons[i - 1]!;
      rows.push([
        i === 0 ? r.name : '',
        i === 0 ? r.tier : '',
        i === 0 ? String(r.bytes) : '',
        s.name,
        s.rps.median.toFixed(0),
        s.cpuMsPerRequest.median.toFixed(3),
        `${s.p50}/${s.p99}`,
        c ? formatSpread(c.rps) : '',
        c ? formatSpread(c.cpu) : '',
        i === 1 && r.goal !== null ? `≥ ${r.goal}` : '',
        i === 1 && r.pass !== null ? (r.pass ? 'PASS' : 'FAIL') : '',
      ]);
    });
  }
  printRows(rows);
  process.stdout.write(
    `${options.rounds} rounds of ${options.seconds} s per side, order rotated each round, ${options.connections} ` +
      `connections. Ratios: service ÷ side, each round's own, as median (min–max); CPU ratio = side's CPU per request ` +
      `÷ the service's (process tree, read after draining). The goal is the req/s ratio against the first side below ` +
      `the service.\n`,
  );
  for (const r of results) {
    const loads = r.rounds.map((round) => round.loadAverage[0]!.toFixed(2)).join(' ');
    process.stdout.write(`${r.name}: load average (1 min) per round: ${loads}\n`);
    if (r.counted) {
      process.stdout.write(
        `${r.name}: the store's daily counter moved ${r.counted.counterDelta} for ${r.counted.requestsSent} requests sent\n`,
      );
    }
  }
}

async function main(): Promise<void> {
  const { filters } = args;
  if (filters[0] === 'startup') {
    const startup = await benchStartup({
      main: SERVER_SCRIPT,
      repoRoot,
      runs: Math.round(numberEnv('BENCH_STARTUP_RUNS', 5)),
      withSuite: process.env.BENCH_SUITE !== '0',
      log: (line) => process.stderr.write(`bench: ${line}\n`),
    });
    printStartup(startup, (text) => process.stdout.write(text));
    writeFileSync(STARTUP_RESULTS_FILE, `${JSON.stringify({ date: new Date().toISOString(), ...startup }, null, 2)}\n`);
    process.stdout.write(`\nwritten ${STARTUP_RESULTS_FILE}\n`);
    return;
  }
  const routes =
    filters.length > 0
      ? BENCH_ROUTES.filter((r) => filters.some((f) => r.name.toLowerCase().includes(f.toLowerCase())))
      : BENCH_ROUTES;
  const withFederation = filters.length === 0 || filters.includes('federation');
  if (routes.length === 0 && !withFederation) throw new Error(`no bench route matches ${filters.join(', ')}`);
  const scratch = mkdtempSync(join(tmpdir(), 'api-bench-'));
  const dataDir = join(scratch, 'data');
  process.stderr.write(
    `bench: ${routes.length} route(s), ${options.connections} connections, ${options.warmupS} s warm-up + ` +
      `${options.rounds} rounds of ${options.seconds} s per side; ${cpus().length} CPUs, node ${process.version}\n` +
      'bench: starting the service…\n',
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
        // As deployed, and as every other side of the comparisons runs: graphql-js skips its development checks.
        NODE_ENV: 'production',
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
        options,
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
