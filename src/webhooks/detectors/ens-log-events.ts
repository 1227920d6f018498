import { type Address, getAddress, type Hex, labelhash, namehash, zeroAddress } from 'viem';
import { decodeContentHash } from '../../sources/ens/content-hash.js';
import { ethRegistrarAbi } from '../../sources/ens/ens-contracts.js';
import type { ChainRpcClient } from '../../sources/rpc/chain-clients.js';
import { eventId } from '../event-id.js';
import type { DetectedEvent } from '../event-types.js';
import { registryEventsAbi, resolverEventsAbi, resolverReadAbi } from './chain-event-abis.js';
import type { EnsNameBook } from './ens-name-book.js';

/** Where ENS lives on the watched chain; `resolver` undefined: record events of every resolver. */
export interface EnsEventContracts {
  registry: Address;
  registrar: Address;
  resolver: Address | undefined;
}

/** Block range and the block times of the step, for event timestamps. */
export interface LogRange {
  chainId: number;
  fromBlock: bigint;
  toBlock: bigint;
  /** Time of a block of the range, ms. */
  blockTime: (blockNumber: bigint) => Promise<number>;
}

const registrarEvents = ethRegistrarAbi.filter((item) => item.type === 'event');

/** Loads what the registrar's logs say about names (labels and expiries) up to `toBlock`, into the book. */
export async function loadRegistrarHistory(p: {
  client: ChainRpcClient;
  registrar: Address;
  book: EnsNameBook;
  toBlock: bigint;
}): Promise<void> {
  const logs = await p.client.getLogs({
    address: p.registrar,
    events: registrarEvents.filter((e) => e.name !== 'Transfer'),
    fromBlock: 0n,
    toBlock: p.toBlock,
  });
  for (const log of logs) {
    if (log.eventName === 'NameRegistered') {
      const { label, expires } = log.args as { label: string; expires: bigint };
      p.book.learnLabel(label, Number(expires));
    } else if (log.eventName === 'NameRenewed') {
      const { id, expires } = log.args as { id: bigint; expires: bigint };
      p.book.renewed(id, Number(expires));
    }
  }
}

/** A contenthash or coin address as people write it: ENSIP-7 URI, EIP-55 address for ETH, else hex. */
function recordValue(record: 'addr' | 'contenthash', bytes: Hex, coinType?: bigint): string {
  if (record === 'contenthash') {
    try {
      return decodeContentHash(bytes) ?? bytes;
    } catch {
      return bytes;
    }
  }
  return coinType === 60n && bytes.length === 42 ? getAddress(bytes) : bytes;
}

/**
 * `ens.transfer` (registrar token and registry ownership moves) and `ens.record_changed` (text, address and content
 * hash records; a text's value from ENS's current resolver's `TextChanged`, or read as of the block of the embedded
 * chain's key-only one) from one block range's logs; also keeps the book's labels and expiries up to date.
 */
export async function ensLogEvents(p: {
  client: ChainRpcClient;
  contracts: EnsEventContracts;
  book: EnsNameBook;
  range: LogRange;
  /** Read records and emit record_changed (someone subscribed to it). */
  records: boolean;
}): Promise<DetectedEvent[]> {
  const { client, contracts, book, range } = p;
  const blocks = { fromBlock: range.fromBlock, toBlock: range.toBlock };
  const [registrarLogs, registryLogs, resolverLogs] = await Promise.all([
    client.getLogs({ address: contracts.registrar, events: registrarEvents, ...blocks }),
    client.getLogs({ address: contracts.registry, events: registryEventsAbi, ...blocks }),
    p.records ? client.getLogs({ address: contracts.resolver, events: resolverEventsAbi, ...blocks }) : [],
  ]);
  const events: DetectedEvent[] = [];
  const where = (log: { blockNumber: bigint; transactionHash: Hex }) => ({
    blockNumber: Number(log.blockNumber),
    transactionHash: log.transactionHash,
  });
  const id = (type: string, log: { transactionHash: Hex; logIndex: number }) =>
    eventId(type, range.chainId, log.transactionHash, log.logIndex);

  for (const log of registrarLogs) {
    if (log.eventName === 'NameRegistered') {
      const { label, expires } = log.args as { label: string; expires: bigint };
      book.learnLabel(label, Number(expires));
    } else if (log.eventName === 'NameRenewed') {
      const { id: token, expires } = log.args as { id: bigint; expires: bigint };
      book.renewed(token, Number(expires));
    } else if (log.eventName === 'Transfer') {
      const { from, to, tokenId } = log.args as { from: Address; to: Address; tokenId: bigint };
      // A mint is a registration, not a transfer.
      if (from === zeroAddress) continue;
      const name = book.nameOfToken(tokenId);
      events.push({
        id: id('ens.transfer', log),
        type: 'ens.transfer',
        timestamp: await range.blockTime(log.blockNumber),
        data: {
          name,
          node: name ? namehash(name) : null,
          labelhash: `0x${tokenId.toString(16).padStart(64, '0')}`,
          kind: 'registrant',
          from: getAddress(from),
          to: getAddress(to),
          ...where(log),
        },
      });
    }
  }

  for (const log of registryLogs) {
    const { node, owner } = log.args as { node: Hex; owner: Address };
    events.push({
      id: id('ens.transfer', log),
      type: 'ens.transfer',
      timestamp: await range.blockTime(log.blockNumber),
      data: { name: book.nameOf(node), node, kind: 'controller', from: null, to: getAddress(owner), ...where(log) },
    });
  }

  for (const log of resolverLogs) {
    const node = (log.args as { node: Hex }).node;
    const base = { name: book.nameOf(node), node, resolver: getAddress(log.address) };
    let change: Record<string, unknown>;
    if (log.eventName === 'TextChanged') {
      const { key, value } = log.args as { key: string; value?: string };
      // ENS's current resolver's event carries the value; the embedded chain's, the key only: its value is read as of
      // the log's block.
      change = {
        record: 'text',
        key,
        value:
          value ??
          (await client
            .readContract({
              address: log.address,
              abi: resolverReadAbi,
              functionName: 'text',
              args: [node, key],
              blockNumber: log.blockNumber,
            })
            .catch(() => null)),
      };
    } else if (log.eventName === 'AddressChanged') {
      const { coinType, newAddress } = log.args as { coinType: bigint; newAddress: Hex };
      change = { record: 'addr', key: coinType.toString(), value: recordValue('addr', newAddress, coinType) };
    } else {
      const { hash } = log.args as { hash: Hex };
      change = { record: 'contenthash', key: null, value: recordValue('contenthash', hash) };
    }
    events.push({
      id: id('ens.record_changed', log),
      type: 'ens.record_changed',
      timestamp: await range.blockTime(log.blockNumber),
      data: { ...base, ...change, ...where(log) },
    });
  }
  return events;
}

const DAY_SECONDS = 86_400;
/** docs/api-contract.md#events: `ens.expiring` is "a name expires within 30 days". */
export const EXPIRING_WINDOW_SECONDS = 30 * DAY_SECONDS;

/**
 * `ens.expiring` and `ens.expired` for the names whose 30-day mark or expiry the chain's clock passed between two
 * steps (`fromTime` exclusive, `toTime` inclusive, Unix seconds); one event per name and expiry.
 */
export function ensExpiryEvents(p: {
  chainId: number;
  book: EnsNameBook;
  fromTime: number;
  toTime: number;
}): DetectedEvent[] {
  const events: DetectedEvent[] = [];
  for (const [name, expires] of p.book.expiries) {
    const expiresAt = new Date(expires * 1000).toISOString();
    if (p.fromTime < expires && expires <= p.toTime) {
      events.push({
        id: eventId('ens.expired', p.chainId, name, expires),
        type: 'ens.expired',
        timestamp: expires * 1000,
        data: { name, node: namehash(name), expiresAt },
      });
      continue;
    }
    const warnAt = expires - EXPIRING_WINDOW_SECONDS;
    if (p.fromTime < warnAt && warnAt <= p.toTime && p.toTime < expires) {
      events.push({
        id: eventId('ens.expiring', p.chainId, name, expires),
        type: 'ens.expiring',
        timestamp: warnAt * 1000,
        data: {
          name,
          node: namehash(name),
          expiresAt,
          daysLeft: Math.ceil((expires - p.toTime) / DAY_SECONDS),
        },
      });
    }
  }
  return events;
}

/** The .eth second-level label of a name, if it is one. */
export function ethLabel(name: string, parent: string): string | null {
  const suffix = `.${parent}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  return label === '' || label.includes('.') ? null : label;
}

/** labelhash as the registrar's token id. */
export const tokenIdOf = (label: string): bigint => BigInt(labelhash(label));
