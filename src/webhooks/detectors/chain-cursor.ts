import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { Store } from '../../store/store.js';
import type { PublishEvents } from '../event-publisher.js';
import { untracedBlocksName } from './untraced-blocks.js';

/**
 * The store name of a chain's cursor: by chain id and genesis hash, so that an embedded chain started afresh (a new
 * genesis) starts a new cursor instead of waiting for the old chain's height.
 */
export function chainCursorName(chainId: number, genesisHash: string): string {
  return `chain:${chainId}:${genesisHash}:block`;
}

/** `block:time` (time in Unix seconds): where the detector got to, kept in the store. */
export interface ChainCursor {
  block: bigint;
  time: number;
}

function parseCursor(value: string | null): ChainCursor | null {
  const match = value === null ? null : /^(\d+):(\d+)$/.exec(value);
  return match ? { block: BigInt(match[1]!), time: Number(match[2]) } : null;
}

/** Where a chain's detection stands: its cursors' store names, the safe head and the block cursor. */
export interface ChainPosition {
  /** The store names of the block cursor and of the blocks left to trace, learnt once from the genesis block. */
  names(): Promise<{ block: string; untraced: string }>;
  /** The safe head now, and the cursor when there is one; without one it is set at that head (detection starts there). */
  headAndCursor(): Promise<{ safe: bigint; cursor: ChainCursor | null }>;
}

/**
 * A chain's position, `confirmations` behind its head, kept in the store.
 * @example const { safe, cursor } = await chainPosition({ client, chainId: 1, confirmations: 0, store, publish }).headAndCursor()
 */
export function chainPosition(p: {
  client: ChainRpcClient;
  chainId: number;
  confirmations: number;
  store: Store;
  publish: PublishEvents;
}): ChainPosition {
  let names: { block: string; untraced: string } | undefined;
  const position: ChainPosition = {
    async names() {
      if (!names) {
        const genesis = (await p.client.getBlock({ blockNumber: 0n })).hash;
        names = { block: chainCursorName(p.chainId, genesis), untraced: untracedBlocksName(p.chainId, genesis) };
      }
      return names;
    },
    async headAndCursor() {
      const cursorName = (await position.names()).block;
      // viem caches the block number for its polling interval (4 s) unless told not to.
      const head = await p.client.getBlockNumber({ cacheTime: 0 });
      const safe = head - BigInt(p.confirmations);
      if (safe < 0n) return { safe, cursor: null };
      const cursor = parseCursor(await p.store.getCursor(cursorName));
      if (!cursor) {
        const block = await p.client.getBlock({ blockNumber: safe });
        await p.publish([], { [cursorName]: `${safe}:${block.timestamp}` });
      }
      return { safe, cursor };
    },
  };
  return position;
}
