import { type Hex, namehash, parseEventLogs, toEventSelector } from 'viem';
import type { ChainRpcClient } from '../rpc/chain-clients.js';
import type { SourceClient } from '../source-client.js';
import { resolverEventsAbi } from './ens-contracts.js';
import { type EnsRecordKeys, type EnsRecordKeysSource, RecordKeysCollector } from './ens-record-keys.js';

const RECORD_EVENT_TOPICS = resolverEventsAbi.map((event) => toEventSelector(event));

/**
 * The records names have, from an embedded chain's resolver logs: `TextChanged` (the key), `AddressChanged` (the coin
 * type) and `ContenthashChanged`, of every resolver, in ONE `eth_getLogs` for all the names of a request (the node is
 * the events' first indexed topic). Read from block 0 at each ask: an embedded chain holds few blocks, and a record set
 * a moment ago is listed at once (no index to wait for), identically on every instance. A key set and later cleared is
 * still listed here; the values read next leave it out.
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
      const collectors = new Map<Hex, RecordKeysCollector>(nodes.map((node) => [node, new RecordKeysCollector()]));
      for (const log of parseEventLogs({ abi: resolverEventsAbi, logs: raw, strict: false })) {
        const keys = collectors.get(log.args.node as Hex);
        if (!keys) continue;
        if (log.eventName === 'TextChanged' && typeof log.args.key === 'string') keys.text(log.args.key);
        else if (log.eventName === 'AddressChanged' && typeof log.args.coinType === 'bigint')
          keys.coin(Number(log.args.coinType));
        else if (log.eventName === 'ContenthashChanged') keys.contentHash();
      }
      return nodes.map((node) => collectors.get(node)!.keys());
    });
  }
}
