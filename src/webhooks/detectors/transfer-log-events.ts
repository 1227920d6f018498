import { decodeAbiParameters, getAddress, type Hex, hexToBigInt, pad, toHex } from 'viem';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import { eventId } from '../event-id.js';
import type { DetectedEvent } from '../event-types.js';
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

/** When a log's block was made, in Unix milliseconds. */
const logTime = (range: LogRange, log: RawLog): Promise<number> => range.blockTime(hexToBigInt(log.blockNumber));

const where = (log: RawLog) => ({
  blockNumber: Number(hexToBigInt(log.blockNumber)),
  transactionHash: log.transactionHash,
});

/**
 * `wallet.transfer` (ERC-20 Transfer) and `wallet.nft_transfer` (ERC-721 Transfer) logs where a watched address sends
 * or receives, in one block range: the two share a topic and differ only in how many are indexed.
 * @example const events = await transferLogEvents(client, range, ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045'])
 */
export async function transferLogEvents(
  client: ChainRpcClient,
  range: LogRange,
  watched: string[],
): Promise<DetectedEvent[]> {
  const events: DetectedEvent[] = [];
  for (const log of await logsInvolving(client, range, TRANSFER_TOPIC, [1, 2], watched)) {
    const [, fromTopic, toTopic, tokenTopic] = log.topics;
    if (!fromTopic || !toTopic) continue;
    const from = addressOfTopic(fromTopic);
    const to = addressOfTopic(toTopic);
    const logIndex = Number(hexToBigInt(log.logIndex));
    if (tokenTopic !== undefined) {
      events.push({
        id: eventId('wallet.nft_transfer', range.chainId, log.transactionHash, logIndex),
        type: 'wallet.nft_transfer',
        timestamp: await logTime(range, log),
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
        timestamp: await logTime(range, log),
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
  return events;
}

/**
 * `wallet.nft_transfer` events of ERC-1155 TransferSingle and TransferBatch logs where a watched address sends or
 * receives, one per token id; a log whose data does not decode is passed over.
 * @example const events = await erc1155TransferEvents(client, range, ['0xd8da6bf26964af9d7eed9e03e53415d37aa96045'])
 */
export async function erc1155TransferEvents(
  client: ChainRpcClient,
  range: LogRange,
  watched: string[],
): Promise<DetectedEvent[]> {
  const events: DetectedEvent[] = [];
  for (const topic0 of [TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC]) {
    for (const log of await logsInvolving(client, range, topic0, [2, 3], watched)) {
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
          timestamp: await logTime(range, log),
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
  return events;
}
