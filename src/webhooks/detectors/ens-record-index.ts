import type { Address, Hex } from 'viem';
import { resolverVersionEventAbi } from '../../sources/ens/ens-contracts.js';
import { clearedAddress, MAX_LISTED_COIN_TYPES, MAX_LISTED_TEXT_KEYS } from '../../sources/ens/ens-record-keys.js';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { Store } from '../../store/store.js';
import type { PublishEvents } from '../event-publisher.js';
import type { EventDetector } from '../start-webhooks.js';
import { resolverEventsAbi, resolverReadAbi } from './chain-event-abis.js';

/**
 * Blocks one step reads at most, as the event detector's (public RPCs refuse wider eth_getLogs ranges); an index behind
 * (the embedded chain's seed, from block 0) catches up a range per step.
 */
const MAX_BLOCKS_PER_STEP = 500n;

/** The resolver events the index reads: both forms of TextChanged, and VersionChanged (`clearRecords`). */
const indexEventsAbi = [...resolverEventsAbi, ...resolverVersionEventAbi];

/** The store name of the index's cursor: by chain id and genesis hash, as the event detector's (chain-cursor.ts). */
export function recordIndexCursorName(chainId: number, genesisHash: string): string {
  return `ens-record-index:${chainId}:${genesisHash}:block`;
}

/** What a range's events leave of one name's records: each key's last state (true: set, false: cleared). */
interface NodeChanges {
  /** Every record was dropped (VersionChanged); the states below are those of the events after the last drop. */
  cleared: boolean;
  texts: Map<string, boolean>;
  coinTypes: Map<number, boolean>;
  contenthash: boolean | undefined;
}

const noChanges = (): NodeChanges => ({
  cleared: false,
  texts: new Map(),
  coinTypes: new Map(),
  contenthash: undefined,
});

/** A text key whose last event in the range carried no value: the resolver that emitted it is asked. */
interface TextToRead {
  node: Hex;
  key: string;
  resolver: Address;
}

/**
 * Each name's records as one block range's resolver events leave them. A text key's event of the embedded chain's
 * resolver says only that it changed: its value is read as of `toBlock` (one multicall `eth_call` for every such key of
 * the range, none when the range has none), and an empty value means cleared. A read that fails keeps the key.
 */
async function rangeChanges(client: ChainRpcClient, fromBlock: bigint, toBlock: bigint) {
  // Every resolver's events (names resolve through many): one eth_getLogs per range, by event topic only.
  const logs = await client.getLogs({ events: indexEventsAbi, fromBlock, toBlock, strict: false });
  const byNode = new Map<Hex, NodeChanges>();
  const toRead = new Map<string, TextToRead>();
  for (const log of logs) {
    const node = log.args.node as Hex | undefined;
    if (!node) continue;
    let changes = byNode.get(node);
    if (!changes) byNode.set(node, (changes = noChanges()));
    if (log.eventName === 'VersionChanged') {
      byNode.set(node, { ...noChanges(), cleared: true });
      for (const id of toRead.keys()) if (id.startsWith(`${node}\n`)) toRead.delete(id);
    } else if (log.eventName === 'TextChanged' && typeof log.args.key === 'string') {
      const key = log.args.key;
      const value = 'value' in log.args ? log.args.value : undefined;
      toRead.delete(`${node}\n${key}`);
      if (typeof value === 'string') changes.texts.set(key, value !== '');
      else {
        changes.texts.set(key, true);
        toRead.set(`${node}\n${key}`, { node, key, resolver: log.address });
      }
    } else if (log.eventName === 'AddressChanged' && typeof log.args.coinType === 'bigint') {
      const coinType = log.args.coinType;
      if (coinType <= BigInt(Number.MAX_SAFE_INTEGER))
        changes.coinTypes.set(Number(coinType), !clearedAddress(coinType, (log.args.newAddress ?? '0x') as Hex));
    } else if (log.eventName === 'ContenthashChanged') {
      changes.contenthash = (log.args.hash ?? '0x') !== '0x';
    }
  }
  const reads = [...toRead.values()];
  if (reads.length > 0) {
    const values = await client.multicall({
      contracts: reads.map((r) => ({
        address: r.resolver,
        abi: resolverReadAbi,
        functionName: 'text' as const,
        args: [r.node, r.key] as const,
      })),
      allowFailure: true,
      blockNumber: toBlock,
      batchSize: 0,
    });
    reads.forEach((read, i) => {
      const result = values[i];
      if (result?.status === 'success' && result.result === '') byNode.get(read.node)!.texts.set(read.key, false);
    });
  }
  return byNode;
}

/** The keys of a map whose state is `state`. */
const withState = <K>(map: Map<K, boolean>, state: boolean): K[] =>
  [...map].filter(([, s]) => s === state).map(([k]) => k);

/**
 * The ENS record index of one chain: reads its resolvers' TextChanged, AddressChanged and ContenthashChanged logs a
 * block range per step, `confirmations` behind the head, and keeps in the store the keys each name has set
 * (Store.addNameRecordKeys) and drops those cleared — a text set to "", an address or content hash set to none, every
 * record of a name whose resolver's `clearRecords` ran (Store.removeNameRecordKeys) — so every instance answers the same list (src/sources/ens/indexed-record-keys.ts)
 * without reading logs per request. Its cursor is its own, in the store: it runs whether or not a webhook wants chain
 * events. From block 0 when `fromGenesis` (an embedded chain), else from the head it first sees (a live chain's history
 * is the ENS subgraph's). Keys are kept before the cursor moves: a step cut short is read again, and both are
 * idempotent. Removals go first, so a key cleared frees its place for one set in the same range.
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
      const byNode = await rangeChanges(p.client, fromBlock, toBlock);
      for (const [node, changes] of byNode) {
        // A name whose records were all dropped: every key held is removed, but those set again after the drop.
        const held = changes.cleared ? (await p.store.nameRecordKeys([node]))[0] : undefined;
        const removal = {
          node,
          texts: [...(held?.textKeys ?? []), ...withState(changes.texts, false)].filter(
            (key) => changes.texts.get(key) !== true,
          ),
          coinTypes: [...(held?.coinTypes ?? []), ...withState(changes.coinTypes, false)].filter(
            (coinType) => changes.coinTypes.get(coinType) !== true,
          ),
          contenthash: changes.contenthash === false || (held?.contentHash === true && changes.contenthash !== true),
        };
        if (removal.texts.length > 0 || removal.coinTypes.length > 0 || removal.contenthash)
          await p.store.removeNameRecordKeys(removal);
        await p.store.addNameRecordKeys({
          node,
          texts: withState(changes.texts, true),
          coinTypes: withState(changes.coinTypes, true),
          contenthash: changes.contenthash === true,
          limits: { texts: MAX_LISTED_TEXT_KEYS, coinTypes: MAX_LISTED_COIN_TYPES },
        });
      }
      await p.publish([], { [cursorName]: String(toBlock) });
    },
  };
}
