import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { AnnouncedInstance, Store } from '../store/store.js';

/** The store group of instances that run an embedded chain of their own. */
export const EMBEDDED_CHAIN_GROUP = 'embedded-chain';
/** How long a heartbeat lives, and how often it is renewed: an instance that died is forgotten within the TTL. */
const HEARTBEAT_TTL_MS = 30_000;
const HEARTBEAT_EVERY_MS = 10_000;

/** What an instance tells the others about its embedded chains: enough for an operator to find it. */
export interface EmbeddedChainIdentity {
  host: string;
  pid: number;
  /** Each embedded chain: name, chain id and the loopback JSON-RPC URL it listens at on that host. */
  chains: { name: string; chainId: number; rpcUrl: string }[];
}

/** The warning for the peers found: who they are, what follows, what to do (docs/operators.md#one-chain-for-all-instances). */
export function embeddedPeersWarning(peers: readonly AnnouncedInstance[]): string {
  const named = peers.map(({ info }) => {
    const peer = JSON.parse(info) as EmbeddedChainIdentity;
    const ethereum = peer.chains.find((c) => c.name === 'ethereum');
    return `${peer.host} pid ${peer.pid}${ethereum ? ` (Ethereum at ${ethereum.rpcUrl} there)` : ''}`;
  });
  return (
    `${peers.length === 1 ? 'another instance runs its own embedded chain' : `${peers.length} other instances run their own embedded chains`} on this Redis store: ${named.join('; ')}. ` +
    'Keys, quotas and payments are shared, but names, records and balances are not: a transaction sent to one chain ' +
    'is unknown to the others, so instances answer differently. Point every instance at one chain (ETH_RPC_URL and ' +
    'BASE_RPC_URL), or give each its own REDIS_KEY_PREFIX (docs/operators.md#one-chain-for-all-instances)'
  );
}

/**
 * On a Redis store, announces this instance's embedded chains with a heartbeat and warns (once per peer, at start and
 * whenever one appears) when another live instance on the same store runs embedded chains of its own: the two
 * disagree on every chain read. Nothing on a store without heartbeats (SQLite: one instance). `stop` leaves the group.
 * @example const peers = await watchEmbeddedPeers({ store, identity, logger }); …; await peers.stop()
 */
export async function watchEmbeddedPeers(p: {
  store: Pick<Store, 'announceInstance' | 'leaveInstances'>;
  identity: Omit<EmbeddedChainIdentity, 'host' | 'pid'>;
  logger: Pick<Logger, 'warn'>;
  now?: () => number;
  everyMs?: number;
}): Promise<{ peers(): readonly AnnouncedInstance[]; stop(): Promise<void> }> {
  const { store } = p;
  if (!store.announceInstance) return { peers: () => [], stop: async () => {} };
  const id = randomUUID();
  const info = JSON.stringify({ host: hostname(), pid: process.pid, ...p.identity } satisfies EmbeddedChainIdentity);
  const now = p.now ?? Date.now;
  const warned = new Set<string>();
  let current: readonly AnnouncedInstance[] = [];
  const beat = async () => {
    current = await store.announceInstance!({
      group: EMBEDDED_CHAIN_GROUP,
      id,
      info,
      ttlMs: HEARTBEAT_TTL_MS,
      now: now(),
    });
    const fresh = current.filter((peer) => !warned.has(peer.id));
    if (fresh.length === 0) return;
    for (const peer of fresh) warned.add(peer.id);
    p.logger.warn(embeddedPeersWarning(fresh));
  };
  await beat();
  // A store that does not answer for a while only delays the next warning; the request paths report the outage.
  const timer = setInterval(() => beat().catch(() => {}), p.everyMs ?? HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    peers: () => current,
    stop: async () => {
      clearInterval(timer);
      await store.leaveInstances?.({ group: EMBEDDED_CHAIN_GROUP, id });
    },
  };
}
