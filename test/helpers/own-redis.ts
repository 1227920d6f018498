import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.js';

/** A Redis of the test's own, on a free loopback port: it may be stopped, frozen and restarted (never the shared one). */
export interface OwnRedis {
  url: string;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  freeze(): void;
  thaw(): void;
  /** Kills the server (SIGKILL): connections drop, the port refuses. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Spawns `redis-server` on `port` (loopback, persisting nothing; `args` add or override options) and resolves once it
 * accepts connections. `track` hears the process's pid at once (a benchmark kills it on any exit).
 */
export function startRedisServer(
  port: number,
  args: readonly string[],
  track?: (pid: number) => void,
): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (child.pid !== undefined) track?.(child.pid);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server ${port} did not start:\n${output}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', () => reject(new Error(`redis-server ${port} exited:\n${output}`)));
  });
}

/** Resolves once `child` has exited (at once if it already has). */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Starts `redis-server` as a child process on a free port, persisting nothing unless `args` (more redis-server
 * options, after the defaults) say otherwise.
 * @example const redis = await startOwnRedis(); redis.freeze(); …; await redis.stop()
 */
export async function startOwnRedis(args: readonly string[] = []): Promise<OwnRedis> {
  const port = await freePort();
  let child = await startRedisServer(port, args);
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      child = await startRedisServer(port, args);
    },
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
