/**
 * Everything the benchmark started is stopped on every way out: a normal return, a thrown error, Ctrl-C, SIGTERM,
 * SIGHUP, an uncaught exception or rejection. Each started thing registers how to stop it gracefully (awaited on
 * signals and errors) and how to kill it at once (run synchronously from process 'exit', when nothing can be awaited).
 */
interface Registration {
  stop(): Promise<void>;
  killNow(): void;
}

const registered = new Set<Registration>();
let installed = false;
let leaving = false;
const beforeLeaving: (() => void)[] = [];

async function stopAll(): Promise<void> {
  await Promise.all([...registered].map((r) => r.stop().catch(() => undefined)));
}

function leave(code: number, why: string): void {
  if (leaving) return;
  leaving = true;
  process.stderr.write(`bench: ${why}; stopping every process it started…\n`);
  for (const save of beforeLeaving) {
    try {
      save();
    } catch (err) {
      process.stderr.write(`bench: saving the finished results failed: ${String(err)}\n`);
    }
  }
  const force = setTimeout(() => process.exit(code), 20_000);
  force.unref();
  void stopAll().finally(() => process.exit(code));
}

/** Installs the handlers once (idempotent). */
function install(): void {
  if (installed) return;
  installed = true;
  process.once('SIGINT', () => leave(130, 'interrupted (SIGINT)'));
  process.once('SIGTERM', () => leave(143, 'terminated (SIGTERM)'));
  process.once('SIGHUP', () => leave(129, 'hung up (SIGHUP)'));
  process.on('uncaughtException', (err) => leave(1, `uncaught exception: ${err.stack ?? String(err)}`));
  process.on('unhandledRejection', (err) =>
    leave(1, `unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  );
  process.on('exit', () => {
    for (const r of registered) {
      try {
        r.killNow();
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * Registers something the benchmark started; returns the function that unregisters it (call it once stopped).
 * @example const forget = onBenchExit({ stop: () => cluster.stop(), killNow: () => pids.forEach(kill) })
 */
export function onBenchExit(registration: Registration): () => void {
  install();
  registered.add(registration);
  return () => registered.delete(registration);
}

/** Runs `save` (synchronously) before leaving on a signal or an uncaught error: the finished results get written. */
export function saveBeforeLeaving(save: () => void): void {
  install();
  beforeLeaving.push(save);
}

/** SIGKILL to a process group (children started `detached`), ignoring one that is gone. */
export function killGroupNow(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}

/**
 * Pids (process groups, or single processes) to SIGKILL if the benchmark leaves early; `forget()` once they have
 * been stopped in order.
 * @example const tracker = pidTracker(); const cluster = await startRedisCluster({ track: tracker.track })
 */
export function pidTracker(): { track: (pid: number) => void; forget: () => void } {
  const pids = new Set<number>();
  const killAll = () => {
    for (const pid of pids) killGroupNow(pid);
  };
  const forget = onBenchExit({ stop: async () => killAll(), killNow: killAll });
  return {
    track: (pid) => pids.add(pid),
    forget: () => {
      pids.clear();
      forget();
    },
  };
}
