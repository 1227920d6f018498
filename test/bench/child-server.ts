import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { killGroupNow, onBenchExit } from './bench-exit.js';

export interface ChildServer {
  /** http://host:port from the child's `serving on …` line. */
  url: string;
  pid: number;
  /**
   * SIGTERM, wait for the child's graceful exit, SIGKILL after `graceMs`; then SIGKILL whatever is left of its
   * process group (a grandchild it failed to stop, such as the embedded chain's anvil).
   */
  stop(graceMs?: number): Promise<void>;
}

const READY_LINE = /^serving on (http:\/\/\S+)\s*$/;

/**
 * Runs a Node script in its own process (its own event loop and core, apart from the load generator) and
 * waits for the `serving on http://…` line that `src/server/main.ts` and `bare-server.ts` print once listening.
 * Other stdout and stderr lines go to this process's stderr, prefixed with `label`.
 * @example const server = await startChildServer({ label: 'server', script: 'dist/bundle/main.mjs', env })
 */
export async function startChildServer(params: {
  label: string;
  script: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(params.nodeArgs ?? []), params.script, ...(params.args ?? [])], {
    env: params.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C reaches only the benchmark, which stops the children in order,
    // and stop() can sweep the whole group afterwards.
    detached: true,
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const tail: string[] = [];
  const relay = (line: string) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    process.stderr.write(`[${params.label}] ${line}\n`);
  };
  createInterface({ input: child.stderr! }).on('line', relay);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${params.label} did not print "serving on …" within ${params.readyTimeoutMs ?? 180_000} ms`));
    }, params.readyTimeoutMs ?? 180_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const ready = READY_LINE.exec(line);
      if (!ready) return relay(line);
      clearTimeout(timer);
      resolve(ready[1]!);
    });
    void exited.then(([code, signal]) => {
      clearTimeout(timer);
      reject(new Error(`${params.label} exited (${signal ?? code}) before listening:\n  ${tail.join('\n  ')}`));
    });
  }).catch(async (err: unknown) => {
    await stopChild(child, exited, 5_000);
    throw err;
  });

  let stopping: Promise<void> | undefined;
  let forget: () => unknown = () => undefined;
  const server: ChildServer = {
    url,
    pid: child.pid!,
    stop: (graceMs = 15_000) => {
      stopping ??= stopChild(child, exited, graceMs).finally(() => forget());
      return stopping;
    },
  };
  // Stopped on any way out of the benchmark (Ctrl-C, SIGTERM, an uncaught error), killed at the latest on exit.
  forget = onBenchExit({ stop: () => server.stop(5_000), killNow: () => killGroupNow(child.pid!) });
  return server;
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}
