import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-sse';
import { runDemo } from '../../src/server/demo.js';
import { type ChildServer, startChildServer } from './child-server.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = join(distRoot, '..');
const SERVER_SCRIPT = join(distRoot, 'bundle/main.mjs');
const RESULTS_FILE = join(repoRoot, 'bench-results-live.json');
/** alice, who `npm run demo -- eth` sends from. */
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export interface LiveBenchResult {
  subscriptions: number;
  transfers: number;
  /** The server's resident memory (VmRSS) before and with every subscription open, bytes. */
  rssBefore: number;
  rssOpen: number;
  bytesPerSubscription: number;
  /** From the transfer's block being mined (its receipt) to each subscriber's event, ms. */
  latencyMs: { p50: number; p99: number; max: number; samples: number };
  pollMs: number;
  loadAverage: number[];
}

const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) * 1024 : Number.NaN;
};

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `npm run bench -- live`: the built server with N open subscriptions over SSE (graphql-sse's client, one connection
 * each, all watching alice's transfers), its memory per subscription (RSS), then `npm run demo -- eth` sent T times and
 * the time from each transfer's block (its receipt) to its delivery on every subscription, p50/p99.
 * BENCH_SUBSCRIPTIONS (1000), BENCH_TRANSFERS (10), BENCH_POLL_MS (WEBHOOK_POLL_MS, 100).
 */
export async function runLiveBench(): Promise<LiveBenchResult> {
  const subscriptions = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);
  const transfers = Number(process.env.BENCH_TRANSFERS ?? 10);
  const pollMs = Number(process.env.BENCH_POLL_MS ?? 100);
  const dataDir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  let server: ChildServer | undefined;
  try {
    server = await startChildServer({
      label: 'service',
      script: SERVER_SCRIPT,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        WEBHOOK_POLL_MS: String(pollMs),
        LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: String(subscriptions),
        // Every subscription is one SSE connection from this one address.
        MAX_CONNECTIONS_PER_ADDRESS: String(subscriptions + 64),
        MAX_CONNECTIONS: String(subscriptions + 256),
        ANONYMOUS_DAILY_LIMIT: '1000000000',
        ANONYMOUS_PER_MINUTE_LIMIT: '1000000000',
      },
    });
    const url = server.url;
    await settle(2000);
    const rssBefore = rssOf(server.pid);
    const client = createClient({ url: `${url}/graphql`, retryAttempts: 0 });
    const received: number[][] = Array.from({ length: transfers }, () => []);
    let connected = 0;
    let failure: unknown;
    const check = () => {
      if (failure) throw failure;
    };
    const streams = Array.from({ length: subscriptions }, () => {
      const events = client.iterate(
        { query: `subscription { walletTransfers(addresses: ["${ALICE}"]) { id } }` },
        { connected: () => void connected++ },
      );
      let seen = 0;
      const reading = (async () => {
        for await (const result of events) {
          if (result.errors) throw new Error(JSON.stringify(result.errors));
          received[seen]?.push(performance.now());
          seen += 1;
        }
      })().catch((err: unknown) => {
        failure ??= err;
      });
      return { events, reading };
    });
    while (connected < subscriptions) {
      check();
      await settle(50);
    }
    await settle(2000);
    const rssOpen = rssOf(server.pid);

    const latencies: number[] = [];
    for (let i = 0; i < transfers; i++) {
      const code = await runDemo(['eth', 'bob.eth', '0.001'], { env: { API_URL: url }, write: () => {} });
      if (code !== 0) throw new Error('npm run demo -- eth failed');
      const minedAt = performance.now();
      while (received[i]!.length < subscriptions) {
        check();
        await settle(5);
      }
      latencies.push(...received[i]!.map((at) => at - minedAt));
    }
    for (const stream of streams) await stream.events.return?.();
    await Promise.allSettled(streams.map((s) => s.reading));
    const sorted = latencies.sort((a, b) => a - b);
    const result: LiveBenchResult = {
      subscriptions,
      transfers,
      rssBefore,
      rssOpen,
      bytesPerSubscription: Math.round((rssOpen - rssBefore) / subscriptions),
      latencyMs: {
        p50: Math.round(percentile(sorted, 50)),
        p99: Math.round(percentile(sorted, 99)),
        max: Math.round(sorted.at(-1)!),
        samples: sorted.length,
      },
      pollMs,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
    writeFileSync(RESULTS_FILE, `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`);
    return result;
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printLiveBench(r: LiveBenchResult, write: (text: string) => void): void {
  write(
    `live: ${r.subscriptions} open subscriptions over SSE: RSS ${(r.rssBefore / 2 ** 20).toFixed(1)} → ${(r.rssOpen / 2 ** 20).toFixed(1)} MiB, ` +
      `${(r.bytesPerSubscription / 1024).toFixed(1)} KiB per subscription; ${r.transfers} transfers, ` +
      `block mined → delivered p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms ` +
      `(${r.latencyMs.samples} deliveries, WEBHOOK_POLL_MS ${r.pollMs}); load average ${r.loadAverage.join(', ')}\n`,
  );
}
