import { type Hex, namehash, parseEventLogs, toEventSelector } from 'viem';
import type { ChainRpcClient } from '../rpc/chain-clients.js';
import type { SourceClient } from '../source-client.js';
import { resolverEventsAbi, resolverVersionEventAbi } from './ens-contracts.js';
import {
  clearedAddress,
  type EnsRecordKeys,
  type EnsRecordKeysSource,
  RecordKeysCollector,
} from './ens-record-keys.js';

const logsAbi = [...resolverEventsAbi, ...resolverVersionEventAbi];
const RECORD_EVENT_TOPICS = logsAbi.map((event) => toEventSelector(event));

/** Each record's state after a name's logs, in the order first set: true set, false cleared. */
interface RecordStates {
  texts: Map<string, boolean>;
  coins: Map<bigint, boolean>;
  contentHash: boolean;
}

const noRecords = (): RecordStates => ({ texts: new Map(), coins: new Map(), contentHash: false });

function listedKeys(states: RecordStates): EnsRecordKeys {
  const keys = new RecordKeysCollector();
  for (const [key, set] of states.texts) if (set) keys.text(key);
  for (const [coinType, set] of states.coins)
    if (set && coinType <= BigInt(Number.MAX_SAFE_INTEGER)) keys.coin(Number(coinType));
  if (states.contentHash) keys.contentHash();
  return keys.keys();
}

/**
 * The records names have, from an embedded chain's resolver logs: `TextChanged` (the key), `AddressChanged` (the coin
 * type) and `ContenthashChanged`, of every resolver, in ONE `eth_getLogs` for all the names of a request (the node is
 * the events' first indexed topic). Read from block 0 at each ask: an embedded chain holds few blocks, and a record set
 * a moment ago is listed at once (no index to wait for), identically on every instance. A record whose latest log
 * clears it is left out: a `TextChanged` carrying the value "", an address or content hash set to none, every record
 * before a `VersionChanged` (`clearRecords`). A key-only `TextChanged` cannot say so: such a key set and later cleared
 * is still listed here, and the values read next leave it out.
 * @example await new ResolverLogKeys({ client, source }).recordKeys(['alice.eth']) // [{ textKeys: ['avatar', …], … }]
 */
export class ResolverLogKeys implements EnsRecordKeysSource {
  constructor(private readonly p: { client: ChainRpcClient; source: SourceClient }) {}

  recordKeys(names: readonly string[]): Promise<EnsRecordKeys[]> {
    if (names.length === 0) return Promise.resolve([]);
    const nodes = names.map((name) => namehash(name));
    return this.p.source.load(`record-keys:${names.join(',')}`, async () => {
      const raw = await this.p.client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: '0x0', toBlock: 'latest', topics: [RECORD_EVENT_TOPICS, [...new Set(nodes)]] }],
      });
      const byNode = new Map<Hex, RecordStates>(nodes.map((node) => [node, noRecords()]));
      // eth_getLogs answers in chain order: a record's last log is its state.
      for (const log of parseEventLogs({ abi: logsAbi, logs: raw, strict: false })) {
        const node = log.args.node as Hex;
        const states = byNode.get(node);
        if (!states) continue;
        if (log.eventName === 'VersionChanged') byNode.set(node, noRecords());
        else if (log.eventName === 'TextChanged' && typeof log.args.key === 'string') {
          const value = 'value' in log.args ? log.args.value : undefined;
          states.texts.set(log.args.key, value !== '');
        } else if (log.eventName === 'AddressChanged' && typeof log.args.coinType === 'bigint')
          states.coins.set(log.args.coinType, !clearedAddress(log.args.coinType, (log.args.newAddress ?? '0x') as Hex));
        else if (log.eventName === 'ContenthashChanged') states.contentHash = (log.args.hash ?? '0x') !== '0x';
      }
      return nodes.map((node) => listedKeys(byNode.get(node)!));
    });
  }
}
