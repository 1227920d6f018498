import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import type { DetectedEvent } from '../event-types.js';
import type { BlockTracer } from './block-value-traces.js';
import type { LogRange } from './ens-log-events.js';
import { ethTransferEvents, type TraceFailure } from './eth-transfer-events.js';
import { erc1155TransferEvents, transferLogEvents } from './transfer-log-events.js';

/**
 * `wallet.transfer` (ETH in the blocks' transactions, ERC-20 Transfer logs) and `wallet.nft_transfer` (ERC-721
 * Transfer, ERC-1155 TransferSingle / TransferBatch) where a watched address sends or receives, in one block range.
 * ETH a contract moves (an internal transfer) comes from tracing the blocks where a transaction may have moved some,
 * with `traceBlock`. A block whose trace fails (a callTracer timeout on a heavy block, a provider's reply-size limit)
 * costs only its internal transfers: it is listed in `traceFailures`, for the caller to ask again, and the other
 * blocks and events are read as usual.
 */
export async function walletTransferEvents(p: {
  client: ChainRpcClient;
  range: LogRange;
  /** Lower-case watched addresses. */
  watched: string[];
  /** Read the blocks' transactions for ETH transfers (someone subscribed to wallet.transfer). */
  eth: boolean;
  /** How to trace a block for ETH contracts move (with `eth`); null: the transactions' own value only. */
  traceBlock: BlockTracer | null;
}): Promise<{ events: DetectedEvent[]; traceFailures: TraceFailure[] }> {
  const { client, range } = p;
  if (p.watched.length === 0) return { events: [], traceFailures: [] };
  const events = [
    ...(await transferLogEvents(client, range, p.watched)),
    ...(await erc1155TransferEvents(client, range, p.watched)),
  ];
  if (!p.eth) return { events, traceFailures: [] };
  const eth = await ethTransferEvents({ client, range, watched: new Set(p.watched), traceBlock: p.traceBlock });
  return { events: [...events, ...eth.events], traceFailures: eth.traceFailures };
}
