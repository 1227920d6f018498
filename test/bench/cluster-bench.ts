import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { type RedisClusterProcesses, startRedisCluster } from '../helpers/redis-cluster.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { pidTracker, saveBeforeLeaving } from './bench-exit.js';
import { type ChildServer, startChildServer } from './child-server.js';

/** One instance count's figures. */
export interface ClusterRun {
  instances: number;
  /** Requests per second over all instances, and the worst instance's p99 (ms). */
  rps: number;
  p99: number;
  /** Answers other than 200 (none expected: the keys' limits are out of the way). */
  non2xx: number;
  completed: number;
  /**
   * Per counted call, over all masters: EVALSHA calls (INFO commandstats), and the commands clients sent, i.e. the
   * Redis round trips (MONITOR, in a separate sample: {@link clientCommands}).
   */
  evalshaPerCall: number;
  roundTripsPerCall: number;
  /** The round trips per counted call by command (the MONITOR sample's, scripts' own left out). */
  roundTripsByCommand: Record<string, number>;
  /** Per counted call, by command, the commands scripts run included (the eight most frequent). */
  perCall: Record<string, number>;
  /** Load average (1 min) when the run began and when it ended. */
  load1AtStart: number;
  load1: number;
  /** Connection errors the MONITOR sample saw (its count is then a lower bound); 0 normally. */
  monitorErrors: number;
}

export interface ClusterResult {
  route: string;
  apiKeys: number;
  connections: number;
  durationS: number;
  runs: ClusterRun[];
  /** Why the remaining instance counts were not measured (their finished runs are kept); null when all were. */
  error: string | null;
}

/** The counted route: light tier, answered from its source's cache, so the store's share of each call is visible. */
const ROUTE = '/api/price/ETH';
const API_KEYS = 12;

/** Calls per command name over every master, from INFO commandstats. */
async function commandCounts(cluster: RedisClusterProcesses): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const port of await cluster.masterPorts()) {
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
    // An 'error' event with no listener would be thrown by ioredis' emitter: the awaited command reports it instead.
    redis.on('error', () => undefined);
    let info: string;
    try {
      await redis.connect();
      info = await redis.info('commandstats');
    } finally {
      redis.disconnect();
    }
    for (const [, name, calls] of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
      counts.set(name!, (counts.get(name!) ?? 0) + Number(calls));
    }
  }
  return counts;
}

/**
 * Counts the commands clients send to every master while `during` runs (MONITOR: a script's own commands are marked
 * `lua` and left out), i.e. the Redis round trips. MONITOR slows Redis down, so only a separate sample uses it.
 */
async function clientCommands(
  cluster: RedisClusterProcesses,
  during: () => Promise<void>,
): Promise<{ sent: number; errors: number; byCommand: Map<string, number> }> {
  let sent = 0;
  const byCommand = new Map<string, number>();
  let errors = 0;
  const connections: Redis[] = [];
  try {
    for (const port of await cluster.masterPorts()) {
      const connection = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
      // ioredis emits 'error' on a reset or refused connection; with no listener that would end the benchmark.
      connection.on('error', () => errors++);
      connections.push(connection);
      const monitor = await connection.monitor();
      monitor.on('error', () => errors++);
      connections.push(monitor);
      monitor.on('monitor', (_time: string, _args: string[], source: string) => {
        if (source === 'lua') return;
        sent++;
        const command = String(_args[0] ?? '').toLowerCase();
        byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
      });
    }
    await during();
  } finally {
    for (const connection of connections) connection.disconnect();
  }
  return { sent, errors, byCommand };
}

const delta = (after: Map<string, number>, before: Map<string, number>, name: string) =>
  (after.get(name) ?? 0) - (before.get(name) ?? 0);

/**
 * `npm run bench -- cluster`: a 3-master Redis Cluster (with replicas), then 1, 2 and 4 instances of the built server
 * on it; autocannon drives the API-key-counted route spread over the instances (connections split evenly, the keys
 * taken in turn) and reports req/s, the worst instance's p99 and the Redis commands per counted call.
 * @example const result = await benchCluster({ serverScript, durationS: 8, connections: 48, instanceCounts: [1, 2, 4] })
 */
export async function benchCluster(p: {
  serverScript: string;
  durationS: number;
  connections: number;
  instanceCounts: number[];
  /** Called with what is measured so far after every run (so an interrupted benchmark can print and write it). */
  progress?: (partial: ClusterResult) => void;
}): Promise<ClusterResult> {
  // The six redis-server nodes are killed on any way out of the benchmark, even while the cluster is still starting.
  const tracker = pidTracker();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const servers: ChildServer[] = [];
  let cluster: RedisClusterProcesses | undefined;
  const runs: ClusterRun[] = [];
  const result: ClusterResult = {
    route: ROUTE,
    apiKeys: API_KEYS,
    connections: p.connections,
    durationS: p.durationS,
    runs,
    error: null,
  };
  try {
    cluster = await startRedisCluster({ track: tracker.track });
    const prefix = `bench:${Date.now()}:`;
    const env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      REDIS_URL: cluster.url,
      REDIS_KEY_PREFIX: prefix,
      REDIS_VOLATILE_OK: 'true',
      // Signing in the keys' wallets is counted anonymously (auth tier, scaled by these).
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      API_KEY_DAILY_LIMIT: '1000000000',
      API_KEY_PER_MINUTE_LIMIT: '1000000000',
      API_KEY_CONCURRENCY: '100000',
    };
    const start = async () => {
      const server = await startChildServer({ label: `instance ${servers.length + 1}`, script: p.serverScript, env });
      servers.push(server);
    };
    await start();
    const first = servers[0]!.url;
    const client = {
      get: (path: string, headers: Record<string, string> = {}) => fetch(`${first}${path}`, { headers }),
      post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${first}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
    };
    // Keys of several wallets: each key's counters live in its own slot, so the load spreads over the masters.
    const keys: string[] = [];
    for (let i = 0; i < API_KEYS; i++) {
      const session = await signIn(client);
      const created = await client.post('/api/user/keys', { name: `bench ${i}` }, bearer(session.token));
      if (created.status !== 201 && created.status !== 200) {
        throw new Error(`creating an API key: ${created.status} ${await created.text()}`);
      }
      keys.push(((await created.json()) as { key: { key: string } }).key.key);
    }
    const probe = await client.get(ROUTE, { 'x-api-key': keys[0]! });
    if (probe.status !== 200) throw new Error(`${ROUTE} answered ${probe.status}: ${await probe.text()}`);

    for (const instances of p.instanceCounts) {
      while (servers.length < instances) await start();
      const active = servers.slice(0, instances);
      const requests = keys.map((key) => ({ method: 'GET', path: ROUTE, headers: { 'x-api-key': key } }));
      const drive = (durationS: number) =>
        Promise.all(
          active.map((server) =>
            autocannon({
              url: server.url,
              connections: Math.max(1, Math.round(p.connections / instances)),
              duration: durationS,
              requests,
            }),
          ),
        );
      await drive(2); // warm-up
      const load1AtStart = loadavg()[0]!;
      const before = await commandCounts(cluster);
      const results = await drive(p.durationS);
      const after = await commandCounts(cluster);
      const completed = results.reduce((sum, r) => sum + r['2xx'], 0);
      runs.push({
        instances,
        rps: results.reduce((sum, r) => sum + r.requests.average, 0),
        p99: Math.max(...results.map((r) => r.latency.p99)),
        non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
        completed,
        evalshaPerCall: delta(after, before, 'evalsha') / completed,
        roundTripsPerCall: 0,
        roundTripsByCommand: {},
        perCall: Object.fromEntries(
          [...after.keys()]
            .map((command) => [command, delta(after, before, command) / completed] as const)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8)
            .map(([command, calls]) => [command, Number(calls.toFixed(2))]),
        ),
        load1AtStart,
        load1: loadavg()[0]!,
        monitorErrors: 0,
      });
      p.progress?.(result);
    }
    // The round trips: a 2 s sample at each instance count, apart from the measured runs (MONITOR costs Redis time).
    for (const run of runs) {
      const active = servers.slice(0, run.instances);
      let completed = 0;
      const sample = await clientCommands(cluster, async () => {
        const results = await Promise.all(
          active.map((server) =>
            autocannon({
              url: server.url,
              connections: Math.max(1, Math.round(p.connections / run.instances)),
              duration: 2,
              requests: keys.map((key) => ({ method: 'GET', path: ROUTE, headers: { 'x-api-key': key } })),
            }),
          ),
        );
        completed = results.reduce((sum, r) => sum + r['2xx'], 0);
      });
      run.roundTripsPerCall = sample.sent / completed;
      run.roundTripsByCommand = Object.fromEntries(
        [...sample.byCommand]
          .sort((a, b) => b[1] - a[1])
          .map(([command, sent]) => [command, Number((sent / completed).toFixed(3))]),
      );
      run.monitorErrors = sample.errors;
      p.progress?.(result);
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await cluster?.stop();
    tracker.forget();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

export function printCluster(result: ClusterResult, write: (text: string) => void): void {
  write(
    `\n${result.route} with ${result.apiKeys} API keys on a 3-master Redis Cluster, ${result.connections} connections ` +
      `split over the instances, ${result.durationS} s per run\n`,
  );
  write('instances   req/s   p99 ms (worst instance)   non-2xx   EVALSHA/call   round trips/call   load1 start→end\n');
  for (const r of result.runs) {
    const roundTrips = r.roundTripsPerCall === 0 ? 'not sampled' : r.roundTripsPerCall.toFixed(2);
    write(
      `${String(r.instances).padStart(9)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.toFixed(1).padStart(24)} ` +
        `${String(r.non2xx).padStart(9)} ${r.evalshaPerCall.toFixed(2).padStart(14)} ` +
        `${roundTrips.padStart(18)} ${`${r.load1AtStart.toFixed(2)}→${r.load1.toFixed(2)}`.padStart(17)}` +
        `${r.monitorErrors > 0 ? `  (MONITOR lost ${r.monitorErrors} connections: a lower bound)` : ''}\n`,
    );
  }
  if (result.error !== null) write(`NOT MEASURED after the runs above: ${result.error}\n`);
  for (const r of result.runs) {
    const commands = Object.entries(r.perCall).map(([command, calls]) => `${command} ${calls}`);
    write(`commands per call with ${r.instances} instance(s), scripts' own included: ${commands.join(', ')}\n`);
    const trips = Object.entries(r.roundTripsByCommand).map(([command, sent]) => `${command} ${sent}`);
    if (trips.length > 0)
      write(`round trips per call with ${r.instances} instance(s), by command: ${trips.join(', ')}\n`);
  }
}

/** `npm run bench -- cluster` (bench-cli.ts): runs {@link benchCluster}, prints it, writes bench-results-cluster.json. */
export async function runClusterBench(): Promise<void> {
  const distRoot = fileURLToPath(new URL('../../', import.meta.url));
  const resultsFile = join(distRoot, '..', 'bench-results-cluster.json');
  let latest: ClusterResult | undefined;
  const report = () => {
    if (!latest) return;
    printCluster(latest, (text) => process.stdout.write(text));
    writeFileSync(resultsFile, `${JSON.stringify({ date: new Date().toISOString(), ...latest }, null, 2)}\n`);
    process.stdout.write(`\nwritten ${resultsFile}\n`);
  };
  saveBeforeLeaving(report);
  latest = await benchCluster({
    serverScript: join(distRoot, 'bundle/main.mjs'),
    durationS: Number(process.env.BENCH_DURATION ?? 8),
    connections: Math.round(Number(process.env.BENCH_CONNECTIONS ?? 48)),
    instanceCounts: (process.env.BENCH_INSTANCES ?? '1,2,4').split(',').map(Number),
    progress: (partial) => {
      latest = partial;
    },
  });
  report();
  if (latest.error !== null) process.exitCode = 1;
}
