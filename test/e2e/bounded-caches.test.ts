import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess, stopAllServerProcesses } from '../helpers/server-process.js';

/** Prints the server's heap after garbage collection on SIGUSR2 (test/helpers/heap-on-signal.mjs). */
const HEAP_ON_SIGNAL = join(import.meta.dirname, '..', 'helpers', 'heap-on-signal.mjs');
const MB = 1024 * 1024;

/** The server's live heap: it collects garbage, then prints what is left. */
async function heapUsed(server: ServerProcess): Promise<number> {
  const seen = server.output().match(/heap-used \d+/g)?.length ?? 0;
  server.child.kill('SIGUSR2');
  for (;;) {
    const lines = server.output().match(/heap-used (\d+)/g) ?? [];
    if (lines.length > seen) return Number(lines.at(-1)!.split(' ')[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Sends `count` requests made by `make`, `concurrency` at a time over as many kept-alive connections; the statuses in
 * order. node:http with bodies made once: the client's own work (fetch, a fresh 1 MB string per call) stays small
 * beside the server's.
 */
async function sendAll(
  url: string,
  count: number,
  concurrency: number,
  make: (i: number) => { path: string; body?: Buffer },
): Promise<number[]> {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const send = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const { path, body } = make(i);
      const req = request(
        {
          agent,
          host: hostname,
          port,
          path,
          method: body ? 'POST' : 'GET',
          headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  const statuses: number[] = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          statuses[i] = await send(i);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return statuses;
}

/** About 1 MB of a GraphQL comment, as JSON string content (its newline escaped), made once. */
const PAD = Buffer.from(JSON.stringify(`# ${'x'.repeat(1_000_000)}\n`).slice(1, -1));

/**
 * A POST /graphql body whose document is about 1 MB (under the 1 MiB body limit), distinct per `i`: one that runs, one
 * that does not validate, one that does not parse, in turn; the pad ends each.
 */
function megabyteDocument(i: number): Buffer {
  const head = i % 3 === 0 ? `{ __typename } # ${i}\n` : i % 3 === 1 ? `{ noSuchField${i} }\n` : `{ unclosed${i}\n`;
  return Buffer.concat([Buffer.from(`{"query":${JSON.stringify(head).slice(0, -1)}`), PAD, Buffer.from('"}')]);
}

describe('what callers send cannot grow the heap: every cache is bounded by bytes', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ nodeArgs: ['--expose-gc', '--import', HEAP_ON_SIGNAL] });
  }, 180_000);
  afterAll(() => stopAllServerProcesses());

  it('1,000 distinct ~1 MB documents from one caller leave the heap within 100 MB of where it started, and each is counted against the caller', async () => {
    const post = (i: number) => ({ path: '/graphql', body: megabyteDocument(i) });
    // Whatever is made once (schema caches, the caller's plan) is made before the measure starts.
    await sendAll(server.url, 9, 3, (i) => post(1_000_000 + i));
    const before = await heapUsed(server);
    const statuses = await sendAll(server.url, 1000, 4, post);
    const after = await heapUsed(server);
    console.info(
      `heap after gc: ${(before / MB).toFixed(1)} MB before, ${(after / MB).toFixed(1)} MB after 1,000 ~1 MB documents`,
    );

    expect(after - before).toBeLessThan(100 * MB);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    // Counted: a document that does not run still costs the caller one call, so past the anonymous daily limit (100)
    // the rest are refused (429). (`{ __typename }` alone is free: those 334 are answered.)
    const unrun = statuses.filter((_, i) => i % 3 !== 0);
    expect(unrun.filter((s) => s === 200).length).toBeLessThanOrEqual(100);
  }, 600_000);

  it('10,000 free /api/gas calls, each padded with 15 KB of a parameter the route does not take, make one micro-cache entry, not 10,000', async () => {
    const pad = 'p'.repeat(15 * 1024);
    const gas = (i: number) => ({ path: `/api/gas?chain=ethereum&pad=${i}${pad}` });
    await sendAll(server.url, 10, 5, gas);
    const before = await heapUsed(server);
    const statuses = await sendAll(server.url, 10_000, 20, gas);
    const after = await heapUsed(server);
    console.info(
      `heap after gc: ${(before / MB).toFixed(1)} MB before, ${(after / MB).toFixed(1)} MB after 10,000 padded /api/gas calls`,
    );

    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(after - before).toBeLessThan(32 * MB);
  }, 600_000);
});
