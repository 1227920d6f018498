import { decodeAbiParameters, getAddress, type Hex, hexToBigInt, pad, toHex } from 'viem';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import { eventId } from '../event-id.js';
import type { DetectedEvent } from '../event-types.js';
import type { BlockTracer } from './block-value-traces.js';
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from './chain-event-abis.js';
import type { LogRange } from './ens-log-events.js';

interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  transactionHash: Hex;
  logIndex: Hex;
}

/** Whether `test` holds for some item, asked in order until one does. */
async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (const item of items) if (await test(item)) return true;
  return false;
}

/** Addresses per topic filter: nodes cap the OR-list of one topic position. */
const TOPIC_CHUNK = 100;

const topicOf = (address: string): Hex => pad(address as Hex, { size: 32 });
const addressOfTopic = (topic: Hex): string => getAddress(`0x${topic.slice(26)}`);

/** eth_getLogs with raw topics: ERC-20 and ERC-721 Transfer share a topic and differ only in how many are indexed. */
async function rawLogs(client: ChainRpcClient, range: LogRange, topics: (Hex | Hex[] | null)[]): Promise<RawLog[]> {
  return (await client.request({
    method: 'eth_getLogs',
    params: [{ fromBlock: toHex(range.fromBlock), toBlock: toHex(range.toBlock), topics }],
  } as never)) as RawLog[];
}

/** Logs where a watched address is in topic position `from` or `to` (each queried once), without repeats. */
async function logsInvolving(
  client: ChainRpcClient,
  range: LogRange,
  topic0: Hex,
  positions: number[],
  watched: string[],
): Promise<RawLog[]> {
  const seen = new Map<string, RawLog>();
  for (let i = 0; i < watched.length; i += TOPIC_CHUNK) {
    const chunk = watched.slice(i, i + TOPIC_CHUNK).map(topicOf);
    for (const position of positions) {
      const topics: (Hex | Hex[] | null)[] = [topic0];
      for (let k = 1; k < position; k++) topics.push(null);
      topics.push(chunk);
      for (const log of await rawLogs(client, range, topics)) seen.set(`${log.transactionHash}:${log.logIndex}`, log);
    }
  }
  return [...seen.values()];
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
  const traceFailures: TraceFailure[] = [];
  if (p.watched.length === 0) return { events: [], traceFailures };
  const watched = new Set(p.watched);
  const events: DetectedEvent[] = [];
  const where = (log: RawLog) => ({
    blockNumber: Number(hexToBigInt(log.blockNumber)),
    transactionHash: log.transactionHash,
  });
  const time = (log: RawLog) => range.blockTime(hexToBigInt(log.blockNumber));

  for (const log of await logsInvolving(client, range, TRANSFER_TOPIC, [1, 2], p.watched)) {
    const [, fromTopic, toTopic, tokenTopic] = log.topics;
    if (!fromTopic || !toTopic) continue;
    const from = addressOfTopic(fromTopic);
    const to = addressOfTopic(toTopic);
    const logIndex = Number(hexToBigInt(log.logIndex));
    if (tokenTopic !== undefined) {
      events.push({
        id: eventId('wallet.nft_transfer', range.chainId, log.transactionHash, logIndex),
        type: 'wallet.nft_transfer',
        timestamp: await time(log),
        data: {
          contract: getAddress(log.address),
          standard: 'erc721',
          tokenId: hexToBigInt(tokenTopic).toString(),
          amount: '1',
          from,
          to,
          ...where(log),
        },
      });
    } else if (log.data.length >= 66) {
      events.push({
        id: eventId('wallet.transfer', range.chainId, log.transactionHash, logIndex),
        type: 'wallet.transfer',
        timestamp: await time(log),
        data: {
          asset: getAddress(log.address),
          from,
          to,
          value: hexToBigInt(log.data.slice(0, 66) as Hex).toString(),
          ...where(log),
        },
      });
    }
  }

  for (const topic0 of [TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC]) {
    for (const log of await logsInvolving(client, range, topic0, [2, 3], p.watched)) {
      const [, , fromTopic, toTopic] = log.topics;
      if (!fromTopic || !toTopic) continue;
      let ids: readonly bigint[];
      let amounts: readonly bigint[];
      try {
        [ids, amounts] =
          topic0 === TRANSFER_SINGLE_TOPIC
            ? decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data).map((v) => [v])
            : decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data);
      } catch {
        continue;
      }
      const logIndex = Number(hexToBigInt(log.logIndex));
      for (let i = 0; i < ids.length; i++) {
        events.push({
          id: eventId('wallet.nft_transfer', range.chainId, log.transactionHash, logIndex, i),
          type: 'wallet.nft_transfer',
          timestamp: await time(log),
          data: {
            contract: getAddress(log.address),
            standard: 'erc1155',
            tokenId: ids[i]!.toString(),
            amount: (amounts[i] ?? 0n).toString(),
            from: addressOfTopic(fromTopic),
            to: addressOfTopic(toTopic),
            ...where(log),
          },
        });
      }
    }
  }

  if (p.eth) {
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
  }
  return { events, traceFailures };
}
