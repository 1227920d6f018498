import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';

const root = join(import.meta.dirname, '..', '..');
const main = join(root, 'dist', 'src', 'server', 'main.js');

interface Instance {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<number | null>;
}

/** Every process start() spawned, killed after the suite even when its start timed out. */
const spawned: { child: ChildProcess; dataDir: string }[] = [];

/** `npm start` as a user runs it: the built entry point (or `npm start` itself), configured only by env vars. */
async function start(env: Record<string, string>, command: 'node' | 'npm start' = 'node'): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-proc-'));
  const [file, args] = command === 'node' ? [process.execPath, [main]] : ['npm', ['start']];
  const child = spawn(file, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push({ child, dataDir });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/serving on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, url, dataDir, exited };
}

/** Every process below `pid` (its children, theirs …), read from /proc. */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name before it is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Each test starts whole servers (two anvil chains each, seeded): on a loaded machine that alone can take half a minute.
const PROCESS_TEST_MS = 120_000;

describe('npm start, as separate processes', () => {
  afterAll(() => {
    for (const i of spawned) {
      i.child.kill('SIGKILL');
      rmSync(i.dataDir, { recursive: true, force: true });
    }
  });

  it(
    'two instances with different PORT and DATA_DIR run side by side, each with its own chain',
    async () => {
      const [a, b] = await Promise.all([start({}), start({})]);
      expect(a!.url).not.toBe(b!.url);
      for (const i of [a!, b!]) {
        const health = await (await fetch(`${i.url}/api/health`)).json();
        expect(health).toMatchObject({ status: 'ok', store: 'sqlite' });
        expect((await fetch(`${i.url}/api/gas`)).status).toBe(200);
        expect(existsSync(join(i.dataDir, 'store.sqlite'))).toBe(true);
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'REDIS_URL switches the store to Redis, every key under REDIS_KEY_PREFIX',
    async () => {
      const prefix = testKeyPrefix('process');
      const i = await start({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
      expect(await (await fetch(`${i.url}/api/health`)).json()).toMatchObject({ store: 'redis' });
      // Every key it wrote (the CCIP signing key it generated, at least) is under REDIS_KEY_PREFIX.
      expect(await deleteKeysUnder(TEST_REDIS_URL, prefix)).toBeGreaterThan(0);
    },
    PROCESS_TEST_MS,
  );

  it(
    'shuts down gracefully on SIGTERM: stops listening, closes the store cleanly, exits 0',
    async () => {
      const i = await start({});
      expect((await fetch(`${i.url}/api/gas`)).status).toBe(200);
      expect(existsSync(join(i.dataDir, 'store.sqlite-wal'))).toBe(true);
      i.child.kill('SIGTERM');
      expect(await i.exited).toBe(0);
      await expect(fetch(`${i.url}/api/health`)).rejects.toThrow();
      // SQLite checkpoints and removes its write-ahead log only on a clean close.
      expect(existsSync(join(i.dataDir, 'store.sqlite-wal'))).toBe(false);
    },
    PROCESS_TEST_MS,
  );

  it(
    'SIGTERM to the `npm start` process itself stops the server and its anvil chains within 5 s',
    async () => {
      const i = await start({}, 'npm start');
      const below = descendantsOf(i.child.pid!);
      // npm → node (the server) → the embedded Ethereum and Base chains (anvil).
      expect(below.length).toBeGreaterThanOrEqual(3);
      const sentAt = Date.now();
      i.child.kill('SIGTERM');
      await i.exited;
      while (below.some(isRunning) && Date.now() - sentAt < 5_000) await new Promise((r) => setTimeout(r, 50));
      expect(below.filter(isRunning)).toEqual([]);
      expect(Date.now() - sentAt).toBeLessThan(5_000);
      await expect(fetch(`${i.url}/api/health`)).rejects.toThrow();
    },
    PROCESS_TEST_MS,
  );
});
