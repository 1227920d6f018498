import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The project root: two folders above test/helpers/. */
const ROOT = join(import.meta.dirname, '..', '..');
/** What `npm start` runs: the bundled server (built by `npm ci`, and kept current by the tests' global setup). */
export const BUILT_MAIN = join(ROOT, 'dist', 'bundle', 'main.mjs');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> from the server's `serving on` line. */
  url: string;
  dataDir: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/** Every process started here, so a file's afterAll can end them all, failed starts included. */
const started = new Set<{ child: ChildProcess; dataDir: string; ownDataDir: boolean }>();

/**
 * The server as its own process, as a user starts it: `node dist/bundle/main.mjs` (or `npm start` itself),
 * configured only by env vars, on an ephemeral port. A `dataDir` given is kept (a restart on the same store); one made
 * here is removed by stopAllServerProcesses.
 * @example const server = await startServerProcess({ env: { REDIS_URL } }); await fetch(`${server.url}/api/health`)
 */
export async function startServerProcess(
  p: {
    env?: Record<string, string>;
    dataDir?: string;
    command?: 'node' | 'npm start';
    /** Node's own options before the script (`node` only), e.g. `--expose-gc`. */
    nodeArgs?: string[];
    timeoutMs?: number;
  } = {},
): Promise<ServerProcess> {
  const dataDir = p.dataDir ?? mkdtempSync(join(tmpdir(), 'api-proc-'));
  const [file, args] =
    p.command === 'npm start' ? ['npm', ['start']] : [process.execPath, [...(p.nodeArgs ?? []), BUILT_MAIN]];
  const child = spawn(file, args, {
    cwd: ROOT,
    // The tests' Redis persists nothing: accepted here, refused where a test says REDIS_VOLATILE_OK=false.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REDIS_VOLATILE_OK: 'true',
      ...p.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add({ child, dataDir, ownDataDir: p.dataDir === undefined });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timeoutMs = p.timeoutMs ?? 120_000;
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = () => {
      const printed = /serving on (http:\/\/\S+)/.exec(output)?.[1];
      if (printed === undefined) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(printed);
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server exited before serving:\n${output}`));
    });
  });
  return { child, url, dataDir, exited, output: () => output };
}

/** SIGKILLs every process startServerProcess started that still runs, and removes the data dirs it made. */
export function stopAllServerProcesses(): void {
  for (const entry of started) {
    if (entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill('SIGKILL');
    if (entry.ownDataDir) rmSync(entry.dataDir, { recursive: true, force: true });
  }
  started.clear();
}
