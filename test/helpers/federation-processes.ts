import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SubgraphName } from '../../subgraphs/shared/build-subgraph.js';
import { freePort } from './free-port.js';

/** The repository root, from test/helpers or from dist/test/helpers. */
export const repoRoot = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url),
);

export interface RunningProcess {
  url: string;
  pid: number;
  /** What it printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM, then SIGKILL to its whole process group after `graceMs` (anvil chains included). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a command in a process group of its own and waits until it prints `serving on http://…`
 * (or, given `ready`, until that probe succeeds against `url`).
 */
async function spawnServing(p: {
  label: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  url?: string;
  ready?: (url: string) => Promise<boolean>;
  timeoutMs?: number;
  /** Hears the process group's pid at once (a benchmark kills the group on any exit). */
  track?: (pid: number) => void;
}): Promise<RunningProcess> {
  const child = spawn(p.command, p.args, {
    cwd: repoRoot,
    env: p.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid !== undefined) p.track?.(child.pid);
  const exited = once(child, 'exit');
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    killGroup(child, 'SIGKILL');
  };
  const deadline = Date.now() + (p.timeoutMs ?? 180_000);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const poll = async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(new Error(`${p.label} exited before serving:\n${output.slice(-3000)}`));
        if (Date.now() > deadline)
          return reject(new Error(`${p.label} did not start in time:\n${output.slice(-3000)}`));
        const printed = /serving on (http:\/\/\S+)/.exec(output)?.[1];
        if (printed) return resolve(printed);
        if (p.url && p.ready && (await p.ready(p.url).catch(() => false))) return resolve(p.url);
        setTimeout(poll, 200);
      };
      void poll();
    });
    return { url, pid: child.pid!, stop, output: () => output };
  } catch (err) {
    await stop(2_000);
    throw err;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/**
 * `npm run subgraph -- <name>` for each name, as a user starts them: PORT=0, everything else from `env`
 * (each gets its own DATA_DIR under `dataDirRoot`).
 */
export async function startSubgraphProcesses(p: {
  names: readonly SubgraphName[];
  env: NodeJS.ProcessEnv;
  dataDirRoot: string;
  track?: (pid: number) => void;
}): Promise<{ subgraphs: Map<SubgraphName, RunningProcess>; stop(): Promise<void> }> {
  const subgraphs = new Map<SubgraphName, RunningProcess>();
  const stop = async () => {
    await Promise.all([...subgraphs.values()].map((s) => s.stop()));
  };
  const started = await Promise.allSettled(
    p.names.map(async (name) => {
      const sub = await spawnServing({
        label: `subgraph ${name}`,
        command: 'npm',
        args: ['run', 'subgraph', '--', name],
        env: { ...p.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: `${p.dataDirRoot}/${name}` },
        track: p.track,
      });
      subgraphs.set(name, sub);
    }),
  );
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { subgraphs, stop };
}

/**
 * The JSON-RPC URL of the embedded chain a `npm run subgraph` process printed it runs (`embedded ethereum chain (id 1):
 * http://…`), to send it the transactions its events come from.
 */
export function printedChainUrl(subgraph: RunningProcess, chain: 'ethereum' | 'base'): string {
  const url = new RegExp(`^embedded ${chain} chain \\(id \\d+\\): (http://\\S+)$`, 'm').exec(subgraph.output())?.[1];
  if (!url) throw new Error(`the process printed no embedded ${chain} chain:\n${subgraph.output().slice(-2000)}`);
  return url;
}

/** `npm run supergraph -- --urls name=url,… --out <file>`: the supergraph with the subgraphs' real URLs. */
export async function writeSupergraph(urls: ReadonlyMap<string, string>, out: string): Promise<void> {
  const list = [...urls].map(([name, url]) => `${name}=${url}/graphql`).join(',');
  await promisify(execFile)('npm', ['run', '-s', 'supergraph', '--', '--urls', list, '--out', out], { cwd: repoRoot });
}

/**
 * Hive Gateway's CLI, as documented: `hive-gateway supergraph <file> --host --port`, with `-c <configFile>` when
 * given, its defaults otherwise.
 */
export async function startHiveGateway(p: {
  supergraphFile: string;
  /** A gateway config file (`export const gatewayConfig = { … }`). */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  track?: (pid: number) => void;
}): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bin = `${repoRoot}/node_modules/@graphql-hive/gateway/dist/bin.js`;
  return spawnServing({
    label: 'hive-gateway',
    command: process.execPath,
    args: [
      bin,
      'supergraph',
      p.supergraphFile,
      ...(p.configFile ? ['-c', p.configFile] : []),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    env: { ...process.env, ...p.env },
    track: p.track,
    url,
    ready: async (u) => {
      const res = await fetch(`${u}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      return res.ok;
    },
  });
}
