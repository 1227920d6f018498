import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VolatileRedisError } from '../../src/store/redis-durability.js';
import { startOwnRedis } from '../helpers/own-redis.js';
import { BUILT_MAIN, startServerProcess, stopAllServerProcesses } from '../helpers/server-process.js';
import { deleteKeysUnder, TEST_REDIS_URL, testKeyPrefix } from '../helpers/test-redis.js';

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

// Each test starts whole servers (two anvil chains each): on a loaded machine that alone can take half a minute.
const PROCESS_TEST_MS = 120_000;

describe('npm start, as separate processes', () => {
  afterAll(() => stopAllServerProcesses());

  it(
    'two instances with different PORT and DATA_DIR run side by side, each with its own chain; SIGTERM stops one gracefully (store closed cleanly, exit 0) and leaves the other serving',
    async () => {
      const [a, b] = await Promise.all([startServerProcess(), startServerProcess()]);
      expect(a.url).not.toBe(b.url);
      for (const i of [a, b]) {
        const health = await (await fetch(`${i.url}/api/health`)).json();
        expect(health).toMatchObject({ status: 'ok', store: 'sqlite' });
        expect((await fetch(`${i.url}/api/gas`)).status).toBe(200);
        expect(existsSync(join(i.dataDir, 'store.sqlite'))).toBe(true);
        // The start banner, written at once after `serving on`: where to go, and each embedded chain's JSON-RPC URL.
        while (!i.output().includes('npm run demo -- --help')) await new Promise((r) => setTimeout(r, 20));
        const banner = i.output().slice(i.output().indexOf(`serving on ${i.url}\n`));
        for (const path of ['/docs', '/graphql', '/mcp', '/api/sources/health'])
          expect(banner).toContain(`${i.url}${path}`);
        const { sources } = await (await fetch(`${i.url}/api/sources/health`)).json();
        for (const chain of ['ethereum', 'base']) {
          const rpcUrl = sources.find((s: { name: string }) => s.name === `rpc:${chain}`).rpcUrl;
          expect(banner).toMatch(new RegExp(`^  ${chain} +${rpcUrl} +embedded anvil`, 'm'));
        }
      }
      expect(existsSync(join(a.dataDir, 'store.sqlite-wal'))).toBe(true);
      a.child.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      await expect(fetch(`${a.url}/api/health`)).rejects.toThrow();
      // SQLite checkpoints and removes its write-ahead log only on a clean close.
      expect(existsSync(join(a.dataDir, 'store.sqlite-wal'))).toBe(false);
      expect((await fetch(`${b.url}/api/health`)).status).toBe(200);
    },
    PROCESS_TEST_MS,
  );

  it(
    '`npm start` with REDIS_URL keeps every key under REDIS_KEY_PREFIX; SIGTERM to the `npm start` process stops the server and its anvil chains within 5 s',
    async () => {
      const prefix = testKeyPrefix('process');
      const i = await startServerProcess({
        command: 'npm start',
        env: { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix },
      });
      expect(await (await fetch(`${i.url}/api/health`)).json()).toMatchObject({ store: 'redis' });
      const below = descendantsOf(i.child.pid!);
      // npm → node (the server) → the embedded Ethereum and Base chains (anvil).
      expect(below.length).toBeGreaterThanOrEqual(3);
      const sentAt = Date.now();
      i.child.kill('SIGTERM');
      await i.exited;
      while (below.some(isRunning) && Date.now() - sentAt < 5_000) await new Promise((r) => setTimeout(r, 50));
      expect(below.filter(isRunning)).toEqual([]);
      await expect(fetch(`${i.url}/api/health`)).rejects.toThrow();
      // Every key it wrote (the CCIP signing key it generated, at least) is under REDIS_KEY_PREFIX.
      expect(await deleteKeysUnder(TEST_REDIS_URL, prefix)).toBeGreaterThan(0);
    },
    PROCESS_TEST_MS,
  );

  it('a busy PORT is refused with one line naming the port and PORT, exit 1, before any chain starts', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const { port } = holder.address() as { port: number };
    try {
      const child = spawn(process.execPath, [BUILT_MAIN], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      let spawnedBelow = 0;
      const watch = setInterval(() => (spawnedBelow = Math.max(spawnedBelow, descendantsOf(child.pid!).length)), 5);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearInterval(watch);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port (PORT=${port + 1} npm start)\n`,
      );
      // No anvil (nor anything else) was started.
      expect(spawnedBelow).toBe(0);
    } finally {
      holder.close();
    }
  });

  it('npm start with a live Ethereum and no receiver, signer or secret is refused, one line per variable, exit 2, before any chain starts', async () => {
    const child = spawn(process.execPath, [BUILT_MAIN], {
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ETH_RPC_URL: 'https://ethereum-rpc.example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let spawnedBelow = 0;
    const watch = setInterval(() => (spawnedBelow = Math.max(spawnedBelow, descendantsOf(child.pid!).length)), 5);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearInterval(watch);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(
      stderr
        .trimEnd()
        .split('\n')
        .map((line) => line.split(':')[0]),
    ).toEqual(['X402_RECEIVER', 'CCIP_SIGNER_KEY', 'JWT_SECRET']);
    expect(stderr).toContain('X402_RECEIVER: unset while ETH_RPC_URL is live');
    expect(spawnedBelow).toBe(0);
  });

  it('npm start on a Redis that keeps nothing across a restart is refused with one line naming it, exit 1', async () => {
    const volatile = await startOwnRedis();
    try {
      const child = spawn(process.execPath, [BUILT_MAIN], {
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: volatile.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(`${new VolatileRedisError([volatile.url.replace('redis://', '')]).message}\n`);
    } finally {
      await volatile.stop();
    }
  });
});
