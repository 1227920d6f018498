import { type ChildProcess, spawn } from 'node:child_process';
import { resolveAnvilBinary } from './anvil-binary.js';

/** The subset of a pino logger the local chain writes to. */
export type LocalChainLogger = {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
};

export type StartLocalChainParameters = {
  /** Chain ID the node reports; 1 so the embedded default looks like Ethereum mainnet. */
  chainId?: number;
  logger?: LocalChainLogger;
  /** How long to wait for the node to answer `eth_chainId` before giving up. */
  startTimeoutMs?: number;
  /** Path to the anvil executable; defaults to the one in the installed platform package. */
  anvilPath?: string;
  /** A state anvil dumped (generated/chain-state/*.state.json) to start from instead of an empty chain. */
  loadStatePath?: string;
};

export type LocalChain = {
  /** `http://127.0.0.1:<ephemeral port>` */
  rpcUrl: string;
  chainId: number;
  /** Process ID of the anvil child. */
  pid: number;
  /** Ends the anvil process; resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
};

export class LocalChainStartError extends Error {
  override name = 'LocalChainStartError';
}

// anvil prints this once its HTTP server is bound; with `--port 0` it is the only place the port appears.
const LISTENING_LINE = /Listening on (\d{1,3}(?:\.\d{1,3}){3}):(\d+)/;
const STDERR_KEPT_CHARS = 4000;
const STOP_GRACE_MS = 2000;

// One 'exit' listener for all running nodes (not one each, which would trip Node's max-listeners warning).
const runningNodes = new Set<ChildProcess>();
const killRunningNodes = (): void => {
  for (const node of runningNodes) node.kill('SIGTERM');
};

/**
 * anvil runs under a small shell that holds the read end of a pipe from this process: when the pipe closes — stop(),
 * or this process dying in any way, SIGKILL included — the shell ends anvil. No orphaned chains.
 */
const PARENT_WATCH = [
  '[ -x "$1" ] || { echo "cannot execute $1" >&2; exit 127; }',
  'exec 3<&0',
  '"$@" & node=$!',
  "trap 'kill $node 2>/dev/null' TERM INT HUP",
  '( read -r _ <&3; kill $node 2>/dev/null ) & watch=$!',
  'wait $node; status=$?',
  'kill $watch 2>/dev/null',
  'exit $status',
].join('\n');

/**
 * Starts an anvil node on 127.0.0.1 at an ephemeral port and resolves once it answers JSON-RPC.
 * The node is killed by `stop()` or, failing that, when this process exits.
 * @example
 * const chain = await startLocalChain({ chainId: 1 })
 * // chain.rpcUrl === 'http://127.0.0.1:41235'
 * await chain.stop()
 */
export async function startLocalChain({
  chainId = 1,
  logger,
  startTimeoutMs = 30_000,
  anvilPath = resolveAnvilBinary(),
  loadStatePath,
}: StartLocalChainParameters = {}): Promise<LocalChain> {
  const startedAt = performance.now();
  // stdout is parsed for the port but never logged: anvil prints the dev accounts' private keys there.
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId), '--color', 'never'];
  if (loadStatePath !== undefined) args.push('--load-state', loadStatePath);
  const child = spawn('/bin/sh', ['-c', PARENT_WATCH, 'anvil-watch', anvilPath, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS);
  });

  if (runningNodes.size === 0) process.on('exit', killRunningNodes);
  runningNodes.add(child);
  const forget = (): void => {
    runningNodes.delete(child);
    if (runningNodes.size === 0) process.off('exit', killRunningNodes);
  };
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      forget();
      resolve();
    });
  });

  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    forget();
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const forceKill = setTimeout(() => child.kill('SIGTERM'), STOP_GRACE_MS);
      await exited;
      clearTimeout(forceKill);
    }
  };

  try {
    const rpcUrl = await waitForListeningUrl(child.stdout, child, startTimeoutMs, () => stderr);
    const remainingMs = Math.max(0, startTimeoutMs - (performance.now() - startedAt));
    await waitForChainId(rpcUrl, chainId, remainingMs, () => stderr);
    const pid = child.pid ?? -1;
    logger?.debug({ rpcUrl, chainId, pid, startMs: Math.round(performance.now() - startedAt) }, 'local chain started');
    child.once('exit', (code, signal) => {
      if (!stopping) logger?.warn({ rpcUrl, code, signal, stderr: stderr.trim() }, 'local chain exited unexpectedly');
    });
    return { rpcUrl, chainId, pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Reads anvil's stdout until the "Listening on" line, then keeps draining it so the pipe never fills. */
function waitForListeningUrl(
  stdout: NodeJS.ReadableStream,
  child: ChildProcess,
  timeoutMs: number,
  readStderr: () => string,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let buffered = '';
    const finish = (outcome: { url: string } | { error: Error }): void => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep consuming stdout (anvil logs every request there) but drop it.
      stdout.off('data', onData);
      stdout.resume();
      if ('url' in outcome) resolve(outcome.url);
      else reject(outcome.error);
    };
    const onData = (chunk: Buffer | string): void => {
      buffered += chunk.toString();
      const match = LISTENING_LINE.exec(buffered);
      if (match) finish({ url: `http://${match[1]}:${match[2]}` });
      else buffered = buffered.slice(-200); // the line we want is short; older output is not needed
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      finish({ error: startError(`anvil exited before listening (code ${code}, signal ${signal})`, readStderr()) });
    const onError = (err: Error): void =>
      finish({ error: startError(`anvil could not be started: ${err.message}`, readStderr()) });
    const timer = setTimeout(
      () => finish({ error: startError(`anvil did not report a listening port within ${timeoutMs} ms`, readStderr()) }),
      timeoutMs,
    );
    stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** Polls `eth_chainId` until the node answers with the expected ID. */
async function waitForChainId(
  rpcUrl: string,
  chainId: number,
  timeoutMs: number,
  readStderr: () => string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let lastProblem = 'no answer';
  do {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(Math.max(50, Math.ceil(deadline - performance.now()))),
      });
      const reply = (await response.json()) as { result?: string };
      if (reply.result !== undefined && Number(reply.result) === chainId) return;
      lastProblem = `eth_chainId answered ${JSON.stringify(reply)}`;
    } catch (err) {
      lastProblem = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  } while (performance.now() < deadline);
  throw startError(
    `anvil at ${rpcUrl} did not answer eth_chainId within ${Math.round(timeoutMs)} ms (${lastProblem})`,
    readStderr(),
  );
}

function startError(message: string, stderr: string): LocalChainStartError {
  const trimmed = stderr.trim();
  return new LocalChainStartError(trimmed ? `${message}; anvil stderr:\n${trimmed}` : message);
}
