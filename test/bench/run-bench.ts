import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BareRouteSpec } from './bare-server.js';
import { saveBeforeLeaving } from './bench-exit.js';
import { BENCH_ROUTES, type BenchRequest, type BenchRoute } from './bench-routes.js';
import {
  bareSpecOf,
  type CapturedAnswer,
  captureAnswer,
  headerNames,
  headerOf,
  productionBenchEnv,
  requestInit,
} from './captured-answer.js';
import { type ChildServer, startChildServer } from './child-server.js';
import { benchFederation, type FederationResult, printFederation } from './federation-bench.js';
import {
  type BenchSide,
  type Comparison,
  compare,
  formatSpread,
  JUDGED_AT_LOAD,
  judgeable,
  type Round,
  runRounds,
  SETTLED_START_LOAD,
  type SideFailure,
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

/** Headers of each side's answer, counted as sent (every header, the engine's own included). */
interface HeaderCounts {
  [side: string]: number;
}

interface RouteResult {
  name: string;
  method: string;
  path: string;
  /** X-RateLimit-Tier as answered; a counted call answered without one says so ("counted", with its REST row's tier). */
  tier: string;
  status: number;
  contentType: string;
  bytes: number;
  /** Every header of each side's answer (the service's first): the baselines that mirror it send the same names. */
  headerCounts: HeaderCounts;
  goal: number | null;
  /** The service and each baseline over the rounds. */
  sides: SideSummary[];
  /** The service against its baseline (the goal's ratio), then against any further baseline. */
  comparisons: Comparison[];
  rounds: Round[];
  /** Sides that failed: they sat out the later rounds; every finished round is kept. */
  failures: SideFailure[];
  pass: boolean | null;
  /** Counted calls: how far the store's global daily counter moved during the load, and the requests sent. */
  counted: { counterDelta: number; requestsSent: number } | null;
  /** Why the route could not be measured at all (its answer or a baseline's was wrong); null when it was. */
  error: string | null;
}

/** A counted REST path whose answer carries X-RateLimit-Global-Used: it tells whether another call was counted. */
const COUNTER_PROBE: BenchRequest = { name: 'counter probe', method: 'GET', path: '/api/price/ETH' };

async function globalUsed(server: ChildServer): Promise<number> {
  const used = headerOf(await captureAnswer(server.url, COUNTER_PROBE), 'x-ratelimit-global-used');
  if (used === undefined) throw new Error(`${COUNTER_PROBE.path} answered without X-RateLimit-Global-Used`);
  return Number(used);
}

/** Whether one call of `route` moves the store's global counter (it is counted, headers or not). */
async function isCounted(server: ChildServer, route: BenchRequest): Promise<boolean> {
  const before = await globalUsed(server);
  await captureAnswer(server.url, route);
  return (await globalUsed(server)) - before - 1 > 0;
}

/** One autocannon run; any non-2xx, error or timeout fails this side (a cheap 429 is no result). */
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
        `[${codes}] — a run that counts refused or failed requests measures nothing`,
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

/** The route's sides besides the service: bare servers mirroring its answer, or another request to the service. */
async function baselinesOf(
  server: ChildServer,
  route: BenchRoute,
  answer: CapturedAnswer,
  scratch: string,
  started: ChildServer[],
  headerCounts: HeaderCounts,
  sent: { count: number },
): Promise<{ sides: BenchSide[]; restTier?: string }> {
  const startBare = async (label: string, name: string, spec: BareRouteSpec, mirrorsHeaders: boolean) => {
    const specFile = join(scratch, `${label}.json`);
    writeFileSync(specFile, JSON.stringify(spec));
    const bare = await startChildServer({ label, script: BARE_SCRIPT, args: [specFile], env: process.env });
    started.push(bare);
    const check = await captureAnswer(bare.url, route);
    headerCounts[name] = check.headers.length;
    if (check.status !== answer.status || !check.body.equals(answer.body)) {
      throw new Error(`${route.name}: the ${label} server does not return the service's status and bytes`);
    }
    if (mirrorsHeaders && headerNames(check) !== headerNames(answer)) {
      throw new Error(
        `${route.name}: the ${label} server sends other headers than the service:\n  service: ${headerNames(answer)}` +
          `\n  ${label}: ${headerNames(check)}`,
      );
    }
    return { name, pids: [bare.pid], drive: (s: number) => drive(bare.url, route, name, s) } satisfies BenchSide;
  };
  const { baseline = 'fastify' } = route;
  if (baseline === 'fastify') {
    return {
      sides: [
        await startBare('bare', 'bare fastify', bareSpecOf(route, answer, 'fastify'), true),
        await startBare(
          'bare-body-only',
          'bare fastify (body only)',
          bareSpecOf(route, answer, 'fastify', true),
          false,
        ),
      ],
    };
  }
  if (baseline === 'node:http') {
    return {
      sides: [await startBare('bare-node-http', 'bare node:http', bareSpecOf(route, answer, 'node:http'), true)],
    };
  }
  const rest = await captureAnswer(server.url, baseline);
  headerCounts[baseline.name] = rest.headers.length;
  if (toolCallText(answer.body) !== rest.body.toString('utf8')) {
    throw new Error(`${route.name}: the tool's text is not what ${baseline.name} answers`);
  }
  return { sides: [serviceSide(server, baseline, baseline.name, sent)], restTier: headerOf(rest, 'x-ratelimit-tier') };
}

async function benchRoute(server: ChildServer, route: BenchRoute, scratch: string): Promise<RouteResult> {
  const answer = await captureAnswer(server.url, route);
  const result: RouteResult = {
    name: route.name,
    method: route.method,
    path: route.path,
    tier: headerOf(answer, 'x-ratelimit-tier') ?? 'free',
    status: answer.status,
    contentType: headerOf(answer, 'content-type') ?? 'application/octet-stream',
    bytes: answer.body.length,
    headerCounts: { service: answer.headers.length },
    goal: route.goal ?? null,
    sides: [],
    comparisons: [],
    rounds: [],
    failures: [],
    pass: null,
    counted: null,
    error: null,
  };
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${route.name}: the service answered ${answer.status}: ${answer.body.toString('utf8', 0, 500)}`);
  }
  const started: ChildServer[] = [];
  const sent = { count: 0 };
  const service = serviceSide(server, route, 'service', sent);
  try {
    const baselines = await baselinesOf(server, route, answer, scratch, started, result.headerCounts, sent);
    const counted = await isCounted(server, route);
    if (counted && headerOf(answer, 'x-ratelimit-tier') === undefined) {
      result.tier = baselines.restTier ? `counted (REST: ${baselines.restTier})` : 'counted';
    }
    const before = counted ? await globalUsed(server) : undefined;
    const { rounds, failures } = await runRounds(
      [service, ...baselines.sides],
      { ...options, quietLoad: SETTLED_START_LOAD },
      (line) => process.stderr.write(`bench: ${route.name} — ${line}\n`),
    );
    if (before !== undefined) {
      result.counted = { counterDelta: (await globalUsed(server)) - before - 1, requestsSent: sent.count };
    }
    const comparisons = baselines.sides.map((b) => compare(rounds, service.name, b.name));
    const ratio = comparisons[0]!.rps.median;
    return {
      ...result,
      sides: [service, ...baselines.sides].map((s) => summarizeSide(rounds, s.name)),
      comparisons,
      rounds,
      failures,
      pass: route.goal === undefined || Number.isNaN(ratio) ? null : ratio >= route.goal,
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

function verdict(r: RouteResult): string {
  if (r.pass === null) return 'NOT MEASURED';
  if (!judgeable(r.rounds)) return `NOT JUDGED (load > ${JUDGED_AT_LOAD})`;
  return r.pass ? 'PASS' : 'FAIL';
}

function printTable(results: RouteResult[]): void {
  const rows = [
    [
      'route',
      'tier',
      'bytes',
      'side',
      'headers',
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
    if (r.error !== null) {
      rows.push([r.name, r.tier, String(r.bytes), 'NOT MEASURED', '', '', '', '', '', '', '', 'ERROR']);
      continue;
    }
    r.sides.forEach((s, i) => {
      const c = i === 0 ? undefined : r.comparisons[i - 1]!;
      const failed = r.failures.some((f) => f.side === s.name);
      rows.push([
        i === 0 ? r.name : '',
        i === 0 ? r.tier : '',
        i === 0 ? String(r.bytes) : '',
        failed ? `${s.name} (FAILED)` : s.name,
        String(r.headerCounts[s.name] ?? r.headerCounts.service ?? ''),
        Number.isNaN(s.rps.median) ? '—' : s.rps.median.toFixed(0),
        Number.isNaN(s.cpuMsPerRequest.median) ? '—' : s.cpuMsPerRequest.median.toFixed(3),
        Number.isNaN(s.rps.median) ? '—' : `${s.p50}/${s.p99}`,
        c ? formatSpread(c.rps) : '',
        c ? formatSpread(c.cpu) : '',
        i === 1 && r.goal !== null ? `≥ ${r.goal}` : '',
        i === 1 && r.goal !== null ? verdict(r) : '',
      ]);
    });
  }
  printRows(rows);
  process.stdout.write(
    `${options.rounds} rounds of ${options.seconds} s per side, order rotated each round, ${options.connections} ` +
      `connections. Ratios: service ÷ side, each round's own, as median (min–max); CPU ratio = side's CPU per request ` +
      `÷ the service's (process tree, read after draining). The goal is the req/s ratio against the first side below ` +
      `the service. "headers": every header of that side's answer, as sent (bare sides mirror the service's names ` +
      `and values; "body only" sends the engine's own alone).\n`,
  );
  for (const r of results) {
    if (r.error !== null) {
      process.stdout.write(`${r.name}: NOT MEASURED: ${r.error}\n`);
      continue;
    }
    const loads = r.rounds
      .map((round) => `${round.loadAverage[0]!.toFixed(2)}→${round.loadAverageAtEnd[0]!.toFixed(2)}`)
      .join(' ');
    process.stdout.write(`${r.name}: load average (1 min) per round, start→end: ${loads}\n`);
    for (const f of r.failures) {
      process.stdout.write(
        `${r.name}: ${f.side} FAILED in ${f.round === 0 ? 'the warm-up' : `round ${f.round}`} (left out after): ${f.error}\n`,
      );
    }
    if (r.counted) {
      process.stdout.write(
        `${r.name}: the store's daily counter moved ${r.counted.counterDelta} for ${r.counted.requestsSent} requests sent\n`,
      );
    }
  }
}

/** A route that could not be measured at all: named, with why, among the results. */
function unmeasured(route: BenchRoute, err: unknown): RouteResult {
  return {
    name: route.name,
    method: route.method,
    path: route.path,
    tier: '?',
    status: 0,
    contentType: '',
    bytes: 0,
    headerCounts: {},
    goal: route.goal ?? null,
    sides: [],
    comparisons: [],
    rounds: [],
    failures: [],
    pass: null,
    counted: null,
    error: err instanceof Error ? err.message : String(err),
  };
}

async function runStartup(): Promise<void> {
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
}

async function main(): Promise<void> {
  const { filters } = args;
  if (filters[0] === 'startup') return runStartup();
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
  const results: RouteResult[] = [];
  let federation: FederationResult | undefined;
  let federationError: string | undefined;
  const write = () =>
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
          federationError,
        },
        null,
        2,
      )}\n`,
    );
  const report = () => {
    if (results.length > 0) printTable(results);
    if (federation) printFederation(federation, (line) => process.stdout.write(line));
    if (federationError) process.stdout.write(`\nfederation: NOT MEASURED: ${federationError}\n`);
    write();
    process.stdout.write(`\nwritten ${RESULTS_FILE}\n`);
  };
  // Interrupted half-way (Ctrl-C, SIGTERM, an uncaught error): what finished is printed and written all the same.
  saveBeforeLeaving(report);
  let server: ChildServer | undefined;
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
        // A production configuration is live, so it gets a receiver, signer key and secret of its own.
        ...productionBenchEnv(),
        // Every call still goes through identify → atomic counters in the store → rate-limit headers;
        // it just never reaches a limit, so each answer is the 200 being measured and not a cheap 429.
        ANONYMOUS_DAILY_LIMIT: '1000000000',
        ANONYMOUS_PER_MINUTE_LIMIT: '1000000000',
      },
    });
    process.stderr.write(`bench: service at ${server.url}\n`);
    for (const route of routes) {
      try {
        results.push(await benchRoute(server, route, scratch));
      } catch (err) {
        process.stderr.write(`bench: ${route.name} NOT MEASURED: ${err instanceof Error ? err.message : err}\n`);
        results.push(unmeasured(route, err));
      }
      write();
    }
    if (withFederation) {
      try {
        federation = await benchFederation({
          server,
          scratch,
          options,
          log: (line) => process.stderr.write(`bench: ${line}\n`),
        });
      } catch (err) {
        federationError = err instanceof Error ? err.message : String(err);
        process.stderr.write(`bench: federation NOT MEASURED: ${federationError}\n`);
      }
    }
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  report();
  const missed = results.filter((r) => (r.pass === false && judgeable(r.rounds)) || r.error !== null);
  if (
    missed.length > 0 ||
    federationError ||
    (federation?.failures.length ?? 0) + (federation?.equalRate?.failures.length ?? 0) > 0
  ) {
    process.stderr.write(`bench: ${missed.map((r) => r.name).join(', ')} missed the goal or were not measured\n`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
