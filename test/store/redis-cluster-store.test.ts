import { randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { openStore } from '../../src/store/open-store.js';
import { masterConnections } from '../../src/store/redis-client.js';
import { VolatileRedisError } from '../../src/store/redis-durability.js';
import { openRedisStore } from '../../src/store/redis-store.js';
import { OUTBOX_PARTITIONS, outboxPartition } from '../../src/store/redis-webhooks.js';
import { apiKeyOwner, type QuotaCounter, type Store } from '../../src/store/store.js';
import { type RedisClusterProcesses, startRedisCluster } from '../helpers/redis-cluster.js';
import { describeStoreContract } from './store-contract.js';

const T0 = Date.UTC(2025, 2, 14, 12, 0, 0);
const DAY = 86_400_000;

let cluster: RedisClusterProcesses;
let nextPrefix = 0;
const freshPrefix = (): string => `cluster-test:${nextPrefix++}:`;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('on a 3-master Redis Cluster', () => {
  // Two instances = two cluster connections with one prefix, as two API servers behind a load balancer.
  describeStoreContract('redis', async () => {
    const prefix = freshPrefix();
    const open = () => openRedisStore({ target: cluster.target, prefix });
    const stores = [await open(), await open()];
    return { stores, dispose: async () => void (await Promise.all(stores.map((s) => s.close()))) };
  });
});

/** The master (port) whose slots hold `key`, asked of the cluster itself. */
async function masterOfKey(redis: Cluster, key: string): Promise<number> {
  const slot = (await redis.cluster('KEYSLOT', key)) as number;
  return cluster.masterOfSlot(slot);
}

describe('the Redis store on a 3-master Redis Cluster', () => {
  it('spreads callers, keys and outbox partitions over all three masters, each script in one slot', async () => {
    const prefix = freshPrefix();
    const store = await openRedisStore({ target: cluster.target, prefix });
    const now = T0;
    for (let i = 0; i < 30; i++) {
      const owner = `ip:198.51.100.${i}`;
      const counters: QuotaCounter[] = [
        { key: `${owner}:day`, owner, limit: 10, windowMs: DAY },
        { key: `${owner}:min`, owner, limit: 5, windowMs: 60_000 },
      ];
      expect((await store.consumeQuota({ counters, now })).admitted).toBe(true);
    }
    for (let i = 0; i < 16; i++) {
      const wallet = `0x${i.toString(16).padStart(40, '0')}`;
      await store.createWebhook({
        webhook: {
          id: randomUUID(),
          wallet,
          url: 'https://hooks.example.org/in',
          events: ['ens.transfer'],
          filters: {},
          secret: 's',
          createdAt: now,
        },
        maxWebhooks: null,
      });
    }
    const keysPerMaster = await Promise.all(
      masterConnections(store.redis).map(async (master) => (await master.keys(`${prefix}*`)).length),
    );
    expect(keysPerMaster).toHaveLength(3);
    for (const count of keysPerMaster) expect(count).toBeGreaterThan(0);
    // Two counters per caller; per wallet its list of webhooks, and one webhook table per partition used.
    const wallets = Array.from({ length: 16 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    const partitions = new Set(wallets.map(outboxPartition)).size;
    expect(keysPerMaster.reduce((a, b) => a + b, 0)).toBe(30 * 2 + 16 + partitions);
    await store.close();
  });

  it('is refused at start when its masters keep nothing across a restart, each master named', async () => {
    const refused = openStore({ dataDir: '/nonexistent', redis: cluster.target, prefix: freshPrefix() });
    await expect(refused).rejects.toBeInstanceOf(VolatileRedisError);
    const masters = (await cluster.masterPorts()).map((port) => `127.0.0.1:${port}`);
    await expect(refused).rejects.toThrow(/keeps nothing across a restart/);
    const error = (await refused.catch((err: unknown) => err)) as VolatileRedisError;
    expect([...error.masters].sort()).toEqual(masters.sort());
  });

  it('a master killed during load and its replica promoted (REDIS_WAIT_REPLICAS=1): only 503s, no quota over-admitted, exactly the credits answered ok spent, every webhook event delivered', async () => {
    const prefix = freshPrefix();
    const open = () =>
      openStore({
        dataDir: '/nonexistent',
        redis: cluster.target,
        prefix,
        timeoutMs: 2_000,
        volatileOk: true,
        waitReplicas: 1,
      });
    const stores: Store[] = [await open(), await open()];
    const admin = await openRedisStore({ target: cluster.target, prefix });
    const redis = admin.redis as Cluster;

    // 12 callers with a daily limit of 100, 12 API keys with 150 credits, a webhook for each of 12 wallets.
    const LIMIT = 100;
    const CREDITS = 150;
    const callers = Array.from({ length: 12 }, (_, i) => `ip:203.0.113.${i}`);
    const counterOf = (owner: string): QuotaCounter => ({ key: `${owner}:day`, owner, limit: LIMIT, windowMs: DAY });
    const keyIds: string[] = [];
    const hooks: { id: string; wallet: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const wallet = `0x${(i + 1).toString(16).padStart(40, 'a')}`;
      const key = await admin.createApiKey({
        id: randomUUID(),
        wallet,
        name: 'load',
        keyHash: randomUUID(),
        prefix: 'sk…',
        createdAt: T0,
        dailyLimit: 1,
        minuteLimit: 1,
      });
      await admin.addCredits({ keyId: key.id, amount: CREDITS, reference: randomUUID(), now: T0 });
      keyIds.push(key.id);
      const hook = await admin.createWebhook({
        webhook: {
          id: randomUUID(),
          wallet,
          url: 'https://h.example.org',
          events: ['t'],
          filters: {},
          secret: 's',
          createdAt: T0,
        },
        maxWebhooks: null,
      });
      hooks.push({ id: hook!.id, wallet });
    }

    // The master to kill: the one holding the most of these entities.
    const entityKeys = [
      ...callers.map((owner) => `{${owner}}`),
      ...keyIds.map((id) => `{${apiKeyOwner(id)}}`),
      ...hooks.map((h) => `{wh:${outboxPartition(h.wallet)}}`),
    ];
    const owners = await Promise.all(entityKeys.map((key) => masterOfKey(redis, key)));
    const victim = [...new Set(owners)].sort(
      (a, b) => owners.filter((p) => p === b).length - owners.filter((p) => p === a).length,
    )[0]!;
    expect(OUTBOX_PARTITIONS).toBeGreaterThan(1);

    const admitted = new Map<string, number>(callers.map((c) => [c, 0]));
    const spent = new Map<string, number>(keyIds.map((k) => [k, 0]));
    /** Debits answered 503: their outcome is unknown to the caller (one in flight when the master died may have run). */
    const spendUnknown = new Map<string, number>(keyIds.map((k) => [k, 0]));
    const recorded = new Set<string>();
    const delivered = new Set<string>();
    /** Each event's delivery id, to ask the store how it ended. */
    const deliveryOf = new Map<string, string>();
    const unexpected: unknown[] = [];
    let refusals = 0;
    let ops = 0;
    let stop = false;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
    /** An outage is a 503, never anything else; after one, the caller waits a moment (as a client would). */
    const refused = async (err: unknown) => {
      if (err instanceof ApiError && err.status === 503) refusals++;
      else unexpected.push(err);
      await pause();
    };

    const quotaWorker = async (w: number) => {
      for (let i = w; !stop; i += 4) {
        const caller = callers[i % callers.length]!;
        const store = stores[i % 2]!;
        try {
          const decision = await store.consumeQuota({ counters: [counterOf(caller)], now: T0 });
          if (decision.admitted) admitted.set(caller, admitted.get(caller)! + 1);
        } catch (err) {
          await refused(err);
        }
        ops++;
      }
    };
    const debitWorker = async (w: number) => {
      for (let i = w; !stop; i += 4) {
        const keyId = keyIds[i % keyIds.length]!;
        try {
          // Named as the access gate names them: a debit answered 503 is given back if it ran.
          const debit = await stores[i % 2]!.debitCredit({ keyId, now: T0, id: randomUUID() });
          if (debit.ok) spent.set(keyId, spent.get(keyId)! + 1);
        } catch (err) {
          spendUnknown.set(keyId, spendUnknown.get(keyId)! + 1);
          await refused(err);
        }
        ops++;
      }
    };
    // A detector records each event until it is recorded (its cursor does not move before), as after an outage.
    const enqueueWorker = async (w: number) => {
      for (let i = w; !stop; i += 2) {
        const hook = hooks[i % hooks.length]!;
        const id = `evt-${w}-${i}`;
        const event = {
          id,
          type: 't',
          payload: JSON.stringify({ id }),
          targets: [{ webhookId: hook.id, wallet: hook.wallet, deliveryId: randomUUID(), monthlyLimit: null }],
        };
        deliveryOf.set(id, event.targets[0]!.deliveryId);
        for (;;) {
          try {
            await stores[i % 2]!.recordEvents({ events: [event], month: '2025-03', now: T0 });
            recorded.add(id);
            break;
          } catch (err) {
            await refused(err);
          }
        }
        ops++;
      }
    };
    const deliver = async (store: Store, now: number): Promise<number> => {
      const claims = await store.claimDeliveries({ now, leaseMs: 60_000, limit: 10 });
      for (const claim of claims) {
        const attempt = { ok: true, responseCode: 200, latencyMs: 1, error: null };
        const args = { id: claim.delivery.id, lease: claim.lease, attempt, retryAt: null, disableAfterMs: DAY, now };
        if (await store.finishDelivery(args)) delivered.add(claim.delivery.eventId);
      }
      return claims.length;
    };
    const deliveryWorker = async () => {
      for (let i = 0; !stop; i++) {
        try {
          if ((await deliver(stores[i % 2]!, T0 + 1)) === 0) await pause();
        } catch (err) {
          await refused(err);
        }
      }
    };

    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const workers = [
      ...[0, 1, 2, 3].map(quotaWorker),
      ...[0, 1, 2, 3].map(debitWorker),
      ...[0, 1].map(enqueueWorker),
      deliveryWorker(),
    ];
    await until(() => ops >= 400);
    const { promoted } = await cluster.killMasterAndPromote(victim);
    const afterFailover = ops;
    await until(() => ops >= afterFailover + 400);
    stop = true;
    await Promise.all(workers);

    // Deliveries leased before the failover (or whose result was lost with the master) are claimed again once their
    // lease runs out; every recorded event ends delivered.
    for (let now = T0 + 3_600_000; (await deliver(stores[0]!, now)) > 0; now += 1) {}

    expect(unexpected).toEqual([]);
    expect(await cluster.masterPorts()).toContain(promoted);
    expect(await cluster.masterPorts()).not.toContain(victim);
    for (const caller of callers) {
      const counted = (await stores[0]!.readQuota({ counters: [counterOf(caller)], now: T0 })).counts[0]!;
      expect(admitted.get(caller)).toBeLessThanOrEqual(LIMIT);
      // Every admission is counted on the promoted replica too (none was lost with the master).
      expect(counted).toBeGreaterThanOrEqual(admitted.get(caller)!);
    }
    // Every successful spend is in the balance (none came back with the failover), and a debit answered 503 that ran
    // anyway is given back once the cluster answers again: the balance ends at exactly what was answered ok.
    const decreases = async () =>
      Promise.all(keyIds.map(async (keyId) => CREDITS - (await stores[0]!.getCredits(keyId))));
    const answeredOk = keyIds.map((keyId) => spent.get(keyId)!);
    for (let tries = 0; tries < 300 && (await decreases()).some((d, i) => d !== answeredOk[i]); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await decreases()).toEqual(answeredOk);
    expect(recorded.size).toBeGreaterThan(0);
    // A delivery finished on the master whose answer was lost with it (refused 503 to the worker) is delivered all the
    // same: the store, not the worker's tally, says which events were delivered.
    const undelivered = [];
    for (const id of recorded) {
      if (delivered.has(id)) continue;
      if ((await stores[0]!.getDelivery(deliveryOf.get(id)!))?.status !== 'delivered') undelivered.push(id);
    }
    expect(undelivered).toEqual([]);
    console.info(
      `failover of master ${victim} → ${promoted}: ${ops} calls, ${refusals} refused 503, ` +
        `${[...admitted.values()].reduce((a, b) => a + b, 0)} admitted, ${[...spent.values()].reduce((a, b) => a + b, 0)} credits spent, ` +
        `${[...spendUnknown.values()].reduce((a, b) => a + b, 0)} debits answered 503 (given back if they ran), ` +
        `${recorded.size} events recorded and delivered`,
    );
    await Promise.all([...stores, admin].map((s) => s.close()));
  }, 60_000);
});
