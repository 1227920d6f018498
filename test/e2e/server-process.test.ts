import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const main = join(root, 'dist', 'src', 'server', 'main.js');

interface Instance {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<number | null>;
}

/** `npm start` as a user runs it: the built entry point, configured only by env vars. */
async function start(env: Record<string, string>): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-proc-'));
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
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

describe.skipIf(!existsSync(main))('npm start, as separate processes', () => {
  const started: Instance[] = [];
  afterAll(() => {
    for (const i of started) {
      i.child.kill('SIGKILL');
      rmSync(i.dataDir, { recursive: true, force: true });
    }
  });

  it('two instances with different PORT and DATA_DIR run side by side, each with its own chain', async () => {
    const [a, b] = await Promise.all([start({}), start({})]);
    started.push(a!, b!);
    expect(a!.url).not.toBe(b!.url);
    for (const i of [a!, b!]) {
      const health = await (await fetch(`${i.url}/api/health`)).json();
      expect(health).toMatchObject({ status: 'ok', store: 'sqlite' });
      expect((await fetch(`${i.url}/api/gas`)).status).toBe(200);
      expect(existsSync(join(i.dataDir, 'store.sqlite'))).toBe(true);
    }
  });

  it('REDIS_URL switches the store to Redis', async () => {
    const i = await start({ REDIS_URL: 'redis://127.0.0.1:6379' });
    started.push(i);
    expect(await (await fetch(`${i.url}/api/health`)).json()).toMatchObject({ store: 'redis' });
  });

  it('shuts down gracefully on SIGTERM: stops listening, closes the store cleanly, exits 0', async () => {
    const i = await start({});
    started.push(i);
    expect((await fetch(`${i.url}/api/gas`)).status).toBe(200);
    expect(existsSync(join(i.dataDir, 'store.sqlite-wal'))).toBe(true);
    i.child.kill('SIGTERM');
    expect(await i.exited).toBe(0);
    await expect(fetch(`${i.url}/api/health`)).rejects.toThrow();
    // SQLite checkpoints and removes its write-ahead log only on a clean close.
    expect(existsSync(join(i.dataDir, 'store.sqlite-wal'))).toBe(false);
  });
});
