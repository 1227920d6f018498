import type { Hex } from 'viem';
import { MAX_LISTED_COIN_TYPES, MAX_LISTED_TEXT_KEYS, RecordKeysCollector } from '../../sources/ens/ens-record-keys.js';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { Store } from '../../store/store.js';
import type { PublishEvents } from '../event-publisher.js';
import type { EventDetector } from '../start-webhooks.js';
import { resolverEventsAbi } from './chain-event-abis.js';

/**
 * Blocks one step reads at most, as the event detector's (public RPCs refuse wider eth_getLogs ranges); an index behind
 * (the embedded chain's seed, from block 0) catches up a range per step.
 */
const MAX_BLOCKS_PER_STEP = 500n;

/** The store name of the index's cursor: by chain id and genesis hash, as the event detector's (chain-cursor.ts). */
export function recordIndexCursorName(chainId: number, genesisHash: string): string {
  return `ens-record-index:${chainId}:${genesisHash}:block`;
}

/** The keys each name's resolver events set in one block range: text keys, coin types, content hash. */
async function rangeKeys(client: ChainRpcClient, fromBlock: bigint, toBlock: bigint) {
  // Every resolver's events (names resolve through many): one eth_getLogs per range, by event topic only.
  const logs = await client.getLogs({ events: resolverEventsAbi, fromBlock, toBlock, strict: false });
  const byNode = new Map<Hex, RecordKeysCollector>();
  for (const log of logs) {
    const node = log.args.node as Hex | undefined;
    if (!node) continue;
    let keys = byNode.get(node);
    if (!keys) byNode.set(node, (keys = new RecordKeysCollector()));
    if (log.eventName === 'TextChanged' && typeof log.args.key === 'string') keys.text(log.args.key);
    else if (log.eventName === 'AddressChanged' && typeof log.args.coinType === 'bigint')
      keys.coin(Number(log.args.coinType));
    else if (log.eventName === 'ContenthashChanged') keys.contentHash();
  }
  return byNode;
}

/**
 * The ENS record index of one chain: reads its resolvers' TextChanged, AddressChanged and ContenthashChanged logs a
 * block range per step, `confirmations` behind the head, and adds the keys each name has set to the store
 * (Store.addNameRecordKeys), so every instance answers the same list (src/sources/ens/indexed-record-keys.ts) without
 * reading logs per request. Its cursor is its own, in the store: it runs whether or not a webhook wants chain events.
 * From block 0 when `fromGenesis` (the embedded chain), else from the head it first sees (a live chain's history is the
 * ENS subgraph's). Keys are added before the cursor moves: a step cut short is read again, and adding is idempotent.
 * @example runDetectors([ensRecordIndex({ client, chainId: 1, fromGenesis: true, confirmations: 0, store, publish, intervalMs: 1000 })])
 */
export function ensRecordIndex(p: {
  client: ChainRpcClient;
  chainId: number;
  fromGenesis: boolean;
  confirmations: number;
  store: Store;
  publish: PublishEvents;
  intervalMs: number;
}): EventDetector {
  let cursorName: string | undefined;
  return {
    name: `ens record index ${p.chainId}`,
    intervalMs: p.intervalMs,
    async step() {
      cursorName ??= recordIndexCursorName(p.chainId, (await p.client.getBlock({ blockNumber: 0n })).hash);
      const safe = (await p.client.getBlockNumber({ cacheTime: 0 })) - BigInt(p.confirmations);
      if (safe < 0n) return;
      const stored = await p.store.getCursor(cursorName);
      if (stored === null && !p.fromGenesis) {
        await p.publish([], { [cursorName]: String(safe) });
        return;
      }
      const cursor = stored === null ? -1n : BigInt(stored);
      if (cursor >= safe) return;
      const fromBlock = cursor + 1n;
      const toBlock = safe - cursor > MAX_BLOCKS_PER_STEP ? cursor + MAX_BLOCKS_PER_STEP : safe;
      const byNode = await rangeKeys(p.client, fromBlock, toBlock);
      for (const [node, collector] of byNode) {
        const keys = collector.keys();
        await p.store.addNameRecordKeys({
          node,
          texts: keys.textKeys,
          coinTypes: keys.coinTypes,
          contenthash: keys.contentHash,
          limits: { texts: MAX_LISTED_TEXT_KEYS, coinTypes: MAX_LISTED_COIN_TYPES },
        });
      }
      await p.publish([], { [cursorName]: String(toBlock) });
    },
  };
}
