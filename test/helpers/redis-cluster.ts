import { type ChildProcess, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { RedisTarget } from '../../src/config/redis-target.js';
import { exited, startRedisServer } from './own-redis.js';

const run = promisify(execFile);

/** A Redis Cluster of the test's own: 3 masters with one replica each, on loopback ports, persisting nothing. */
export interface RedisClusterProcesses {
  /** The cluster as config.redis names it (every node a seed). */
  target: Extract<RedisTarget, { kind: 'cluster' }>;
  /** REDIS_URL of it: `redis+cluster://127.0.0.1:p1,…`. */
  url: string;
  /** Ports of the nodes that are masters serving slots now, as the surviving nodes see it. */
  masterPorts(): Promise<number[]>;
  /** The port of the replica of the master on `port`. */
  replicaOf(port: number): Promise<number>;
  /** The master owning `slot` now. */
  masterOfSlot(slot: number): Promise<number>;
  /**
   * SIGKILLs the master on `port` and promotes its replica at once (CLUSTER FAILOVER FORCE on it, rather than waiting
   * for the node timeout); once every surviving node reports cluster_state:ok with the replica a master, starts the
   * killed node again (empty): it rejoins as the new master's replica. Resolves when that replica is in sync.
   */
  killMasterAndPromote(port: number): Promise<{ promoted: number }>;
  stop(): Promise<void>;
}

/** A port whose cluster bus port (port + 10000) is free as well. */
async function freePortPair(): Promise<number> {
  const listens = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await listens(port)) && (await listens(port + 10_000))) return port;
  }
}

function startNode(port: number, dir: string, track?: (pid: number) => void): Promise<ChildProcess> {
  mkdirSync(dir, { recursive: true });
  return startRedisServer(
    port,
    [
      ...['--dir', dir, '--daemonize', 'no', '--repl-diskless-sync-delay', '0'],
      ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '1000'],
    ],
    track,
  );
}

/** Runs one command on one node over a short-lived connection. */
async function onNode<T>(port: number, command: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    return await command(redis);
  } finally {
    redis.disconnect();
  }
}

/** Whether the master on `port` has a replica that is online (its initial sync done). */
async function inSync(port: number): Promise<boolean> {
  const info = await onNode(port, (r) => r.info('replication'));
  return /^slave0:.*state=online/m.test(info);
}

/** Polls `check` every 50 ms until it holds, for at most `ms`. */
async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`the Redis Cluster did not get there within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `CLUSTER NODES` of one node: port, role and master id of each node it knows. */
async function clusterNodes(port: number) {
  const text = await onNode(port, (r) => r.call('CLUSTER', 'NODES') as Promise<string>);
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(' ');
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(address!)?.[1]),
        master: flags!.includes('master'),
        failed: flags!.includes('fail'),
        masterId: master === '-' ? undefined : master,
        slots: slots.map((range) => range.split('-').map(Number) as [number, number?]),
      };
    });
}

/**
 * Starts six `redis-server --cluster-enabled yes` processes in a temp dir and joins them with
 * `redis-cli --cluster create … --cluster-replicas 1`: 3 masters, one replica each. Resolves once every node reports
 * cluster_state:ok. Stop it with `stop()`. `track` hears each node's pid as it is spawned (restarts included), so a
 * benchmark can kill them on any exit, even one that happens while the cluster is still starting.
 * @example const cluster = await startRedisCluster(); const store = await openRedisStore({ target: cluster.target })
 */
export async function startRedisCluster(
  options: { track?: (pid: number) => void } = {},
): Promise<RedisClusterProcesses> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) {
    let port = await freePortPair();
    while (ports.includes(port)) port = await freePortPair();
    ports.push(port);
  }
  const children = new Map<number, ChildProcess>();
  const stop = async () => {
    await Promise.all(
      [...children.values()].map((child) => {
        child.kill('SIGKILL');
        return exited(child);
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.all(ports.map((port) => startNode(port, join(dir, String(port)), options.track)));
    for (const [i, port] of ports.entries()) children.set(port, started[i]!);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await waitFor('cluster_state:ok on every node, each seeing 3 masters and 3 replicas', 30_000, async () => {
      for (const port of ports) {
        const info = await onNode(port, (r) => r.call('CLUSTER', 'INFO') as Promise<string>);
        if (!info.includes('cluster_state:ok')) return false;
        const nodes = await clusterNodes(port);
        if (nodes.filter((n) => n.master).length !== 3 || nodes.filter((n) => n.masterId).length !== 3) return false;
      }
      // Every replica has its master's data (a failover promotes a replica that has it).
      const masters = (await clusterNodes(ports[0]!)).filter((n) => n.master).map((n) => n.port);
      return (await Promise.all(masters.map(inSync))).every(Boolean);
    });
  } catch (err) {
    await stop();
    throw err;
  }

  const alive = () => [...children.keys()].filter((port) => children.get(port)!.exitCode === null);
  const view = () => clusterNodes(alive()[0]!);
  const replicaOf = async (port: number) => {
    const nodes = await view();
    const master = nodes.find((n) => n.port === port)!;
    return nodes.find((n) => n.masterId === master.id)!.port;
  };
  return {
    target: { kind: 'cluster', nodes: ports.map((port) => ({ host: '127.0.0.1', port })), tls: false },
    url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`,
    async masterPorts() {
      return (await view()).filter((n) => n.master && !n.failed && n.slots.length > 0).map((n) => n.port);
    },
    replicaOf,
    async masterOfSlot(slot) {
      const owner = (await view()).find(
        (n) => n.master && !n.failed && n.slots.some(([from, to]) => slot >= from && slot <= (to ?? from)),
      );
      return owner!.port;
    },
    async killMasterAndPromote(port) {
      const promoted = await replicaOf(port);
      const child = children.get(port)!;
      child.kill('SIGKILL');
      await exited(child);
      children.delete(port);
      // FORCE: no handshake with the dead master; the surviving masters still vote. Without it the node timeout
      // (1 s) would start the same election a little later.
      await onNode(promoted, (r) => r.call('CLUSTER', 'FAILOVER', 'FORCE'));
      await waitFor(`replica ${promoted} promoted`, 20_000, async () => {
        const role = await onNode(promoted, (r) => r.call('ROLE') as Promise<[string]>);
        return role[0] === 'master';
      });
      await waitFor('cluster_state:ok on every surviving node', 20_000, async () => {
        for (const survivor of alive()) {
          const info = await onNode(survivor, (r) => r.call('CLUSTER', 'INFO') as Promise<string>);
          if (!info.includes('cluster_state:ok')) return false;
          const nodes = await clusterNodes(survivor);
          if (!nodes.some((n) => n.port === promoted && n.master)) return false;
        }
        return true;
      });
      children.set(port, await startNode(port, join(dir, String(port)), options.track));
      await waitFor(`node ${port} back as the replica of ${promoted}, in sync`, 30_000, () => inSync(promoted));
      return { promoted };
    },
    stop,
  };
}
