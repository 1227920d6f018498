/** One Redis Cluster node the client first asks for the cluster's layout. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Where the Redis store lives: one Redis (a `redis://` URL), or a Redis Cluster reached through seed nodes. */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      /** Seed nodes; the client learns every master and replica from them. */
      nodes: RedisNode[];
      username?: string;
      password?: string;
      /** `rediss+cluster://`: TLS to every node. */
      tls: boolean;
    };

/** The URL schemes of a cluster REDIS_URL: `redis+cluster://h1:p1,h2:p2`, TLS with `rediss+cluster://`. */
const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#]+)\/?$/;

/**
 * Comma-separated `host:port` pairs (REDIS_CLUSTER_NODES, or the hosts of a `redis+cluster://` URL); an error message
 * for the first that is not one.
 * @example redisNodes('10.0.0.1:7000,10.0.0.2:7000') // { nodes: [{ host: '10.0.0.1', port: 7000 }, …] }
 */
export function redisNodes(list: string): { nodes: RedisNode[] } | { error: string } {
  const nodes: RedisNode[] = [];
  for (const entry of list
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) return { error: `"${entry}" is not a host:port like 10.0.0.1:7000` };
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  if (nodes.length === 0) return { error: 'names no host:port' };
  return { nodes };
}

/**
 * The Redis target of REDIS_URL and REDIS_CLUSTER_NODES: a cluster when either names one (the nodes of both are
 * seeds), one Redis for a plain `redis://` URL, none when both are unset; an error message when they do not parse.
 * @example redisTarget({ url: 'redis+cluster://:pw@10.0.0.1:7000,10.0.0.2:7000' })
 */
export function redisTarget(p: { url?: string; clusterNodes?: string }): RedisTarget | undefined | { error: string } {
  const cluster = p.url === undefined ? undefined : CLUSTER_URL.exec(p.url);
  if (p.url !== undefined && !cluster && p.clusterNodes === undefined) return { kind: 'single', url: p.url };
  if (p.url !== undefined && !cluster) {
    return { error: 'REDIS_URL: with REDIS_CLUSTER_NODES it must be a redis+cluster:// URL (or unset)' };
  }
  if (!cluster && p.clusterNodes === undefined) return undefined;
  const fromUrl = cluster ? redisNodes(cluster[4]!) : { nodes: [] };
  if ('error' in fromUrl) return { error: `REDIS_URL: ${fromUrl.error}` };
  const fromList = p.clusterNodes === undefined ? { nodes: [] } : redisNodes(p.clusterNodes);
  if ('error' in fromList) return { error: `REDIS_CLUSTER_NODES: ${fromList.error}` };
  const decode = (part: string | undefined) => (part ? decodeURIComponent(part) : undefined);
  return {
    kind: 'cluster',
    nodes: [...fromUrl.nodes, ...fromList.nodes],
    ...(decode(cluster?.[2]) === undefined ? {} : { username: decode(cluster?.[2]) }),
    ...(decode(cluster?.[3]) === undefined ? {} : { password: decode(cluster?.[3]) }),
    tls: cluster?.[1] === 'rediss',
  };
}

/** The target as it may be shown: no password. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'single') {
    try {
      const parsed = new URL(target.url);
      parsed.password = '';
      return parsed.toString();
    } catch {
      return 'redis://(unparseable url)';
    }
  }
  const user = target.username ? `${target.username}@` : '';
  const hosts = target.nodes.map((n) => (n.host.includes(':') ? `[${n.host}]:${n.port}` : `${n.host}:${n.port}`));
  return `${target.tls ? 'rediss' : 'redis'}+cluster://${user}${hosts.join(',')}`;
}
