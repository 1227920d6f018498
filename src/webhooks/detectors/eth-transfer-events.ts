import { getAddress, type Hex } from 'viem';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import { eventId } from '../event-id.js';
import type { DetectedEvent } from '../event-types.js';
import type { BlockTracer } from './block-value-traces.js';
import type { LogRange } from './ens-log-events.js';

/** Whether `test` holds for some item, asked in order until one does. */
async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (const item of items) if (await test(item)) return true;
  return false;
}

/** A block whose trace failed: its internal ETH transfers are not known (yet). */
export interface TraceFailure {
  block: bigint;
  error: unknown;
}

/**
 * `wallet.transfer` events for the ETH contracts moved inside one block (internal transfers) where a watched address
 * sends or receives; a failed trace is thrown.
 * @example const events = await internalTransferEvents({ traceBlock, chainId: 1, block: 12n, transactions, timestamp, watched })
 */
export async function internalTransferEvents(p: {
  traceBlock: BlockTracer;
  chainId: number;
  block: bigint;
  /** The block's transaction hashes, in order. */
  transactions: readonly Hex[];
  /** The block's time, in Unix milliseconds. */
  timestamp: number;
  /** Lower-case watched addresses. */
  watched: ReadonlySet<string>;
}): Promise<DetectedEvent[]> {
  const moves = await p.traceBlock(p.block, p.transactions);
  return moves
    .filter((move) => p.watched.has(move.from.toLowerCase()) || p.watched.has(move.to.toLowerCase()))
    .map((move) => ({
      // The trace position makes the id: a second detection of the same move is the same event.
      id: eventId('wallet.transfer', p.chainId, move.transactionHash, 'trace', move.traceAddress.join('.')),
      type: 'wallet.transfer',
      timestamp: p.timestamp,
      data: {
        asset: 'ETH',
        from: move.from,
        to: move.to,
        value: move.value.toString(),
        internal: true,
        traceAddress: move.traceAddress,
        blockNumber: Number(p.block),
        transactionHash: move.transactionHash,
      },
    }));
}

/**
 * `wallet.transfer` events for ETH in the range's blocks: the transactions' own value (succeeded, to a watched address
 * or from one), and ETH contracts move inside (traced with `traceBlock`, only in blocks where a transaction may have
 * moved some). A block whose trace fails costs only its internal transfers: it is listed in `traceFailures`.
 * @example const { events, traceFailures } = await ethTransferEvents({ client, range, watched, traceBlock: null })
 */
export async function ethTransferEvents(p: {
  client: ChainRpcClient;
  range: LogRange;
  /** Lower-case watched addresses. */
  watched: ReadonlySet<string>;
  traceBlock: BlockTracer | null;
}): Promise<{ events: DetectedEvent[]; traceFailures: TraceFailure[] }> {
  const { client, range, watched } = p;
  const events: DetectedEvent[] = [];
  const traceFailures: TraceFailure[] = [];
  const hasCode = new Set<string>();
  /** Whether a transaction may move ETH inside: it creates, calls with data, or sends to code (even plain ETH). */
  const mayMoveInside = async (tx: { to: Hex | null; input: Hex }, blockNumber: bigint): Promise<boolean> => {
    if (!tx.to || tx.input !== '0x') return true;
    const to = tx.to.toLowerCase();
    if (hasCode.has(to)) return true;
    const code = await client.getCode({ address: tx.to, blockNumber });
    if (code === undefined || code === '0x') return false;
    hasCode.add(to);
    return true;
  };
  for (let n = range.fromBlock; n <= range.toBlock; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    const timestamp = Number(block.timestamp) * 1000;
    for (const tx of block.transactions) {
      if (tx.value === 0n) continue;
      const from = tx.from.toLowerCase();
      const to = tx.to?.toLowerCase();
      if (!watched.has(from) && !(to && watched.has(to))) continue;
      // A reverted transaction moved nothing.
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      if (receipt.status !== 'success' || !tx.to) continue;
      events.push({
        id: eventId('wallet.transfer', range.chainId, tx.hash, 'eth'),
        type: 'wallet.transfer',
        timestamp,
        data: {
          asset: 'ETH',
          from: getAddress(tx.from),
          to: getAddress(tx.to),
          value: tx.value.toString(),
          internal: false,
          blockNumber: Number(n),
          transactionHash: tx.hash,
        },
      });
    }
    // A block of plain transfers between accounts without code moves no ETH inside: no trace asked.
    if (!p.traceBlock || !(await someAsync(block.transactions, (tx) => mayMoveInside(tx, n)))) continue;
    try {
      events.push(
        ...(await internalTransferEvents({
          traceBlock: p.traceBlock,
          chainId: range.chainId,
          block: n,
          transactions: block.transactions.map((tx) => tx.hash),
          timestamp,
          watched,
        })),
      );
    } catch (error) {
      traceFailures.push({ block: n, error });
    }
  }
  return { events, traceFailures };
}
