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

/** Sends `count` requests made by `make`, `concurrency` at a time; the statuses in order. */
async function sendAll(count: number, concurrency: number, make: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const res = await make(i);
        await res.arrayBuffer();
        statuses[i] = res.status;
      }
    }),
  );
  return statuses;
}

/** A document of about 1 MB (under the 1 MiB body limit), distinct per `i`: one that runs, one that does not
 * validate, one that does not parse, in turn. */
function megabyteDocument(i: number): string {
  const pad = `# ${'x'.repeat(1_000_000)}\n`;
  if (i % 3 === 0) return `{ __typename } # ${i}\n${pad}`;
  if (i % 3 === 1) return `{ noSuchField${i} }\n${pad}`;
  return `{ unclosed${i}\n${pad}`;
}

describe('what callers send cannot grow the heap: every cache is bounded by bytes', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ nodeArgs: ['--expose-gc', '--import', HEAP_ON_SIGNAL] });
  }, 180_000);
  afterAll(() => stopAllServerProcesses());

  it('1,000 distinct ~1 MB documents from one caller leave the heap within 100 MB of where it started, and each is counted against the caller', async () => {
    const post = (i: number) =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: megabyteDocument(i) }),
      });
    // Whatever is made once (schema caches, the caller's plan) is made before the measure starts.
    await sendAll(9, 3, (i) => post(1_000_000 + i));
    const before = await heapUsed(server);
    const statuses = await sendAll(1000, 4, post);
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
    await sendAll(10, 5, (i) => fetch(`${server.url}/api/gas?chain=ethereum&pad=${i}${pad}`));
    const before = await heapUsed(server);
    const statuses = await sendAll(10_000, 20, (i) => fetch(`${server.url}/api/gas?chain=ethereum&pad=${i}${pad}`));
    const after = await heapUsed(server);
    console.info(
      `heap after gc: ${(before / MB).toFixed(1)} MB before, ${(after / MB).toFixed(1)} MB after 10,000 padded /api/gas calls`,
    );

    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(after - before).toBeLessThan(32 * MB);
  }, 600_000);
});
