import {
  type Address,
  createPublicClient,
  custom,
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionResult,
  type Hex,
  namehash,
  toHex,
} from 'viem';
import { mainnet } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { resolverEventsAbi, resolverVersionEventAbi } from '../../src/sources/ens/ens-contracts.js';
import { ResolverLogKeys } from '../../src/sources/ens/resolver-log-keys.js';
import type { ChainRpcClient } from '../../src/sources/rpc/chain-clients.js';
import type { SourceClient } from '../../src/sources/source-client.js';
import { resolverReadAbi } from '../../src/webhooks/detectors/chain-event-abis.js';
import { ensLogEvents } from '../../src/webhooks/detectors/ens-log-events.js';
import { EnsNameBook } from '../../src/webhooks/detectors/ens-name-book.js';

const RESOLVER: Address = '0x1111111111111111111111111111111111111111';
const REGISTRY: Address = '0x2222222222222222222222222222222222222222';
const REGISTRAR: Address = '0x3333333333333333333333333333333333333333';
const NODE = namehash('alice.eth');
const [keyOnlyTextChanged, valuedTextChanged] = resolverEventsAbi.filter((e) => e.name === 'TextChanged');

/** A raw resolver log as a node answers it to eth_getLogs: topics and data ABI-encoded, in block `n`. */
function rawLog(n: number, topics: readonly (Hex | Hex[] | null)[], data: Hex) {
  return {
    address: RESOLVER,
    topics: topics as Hex[],
    data,
    blockNumber: toHex(n),
    blockHash: toHex(n, { size: 32 }),
    transactionHash: toHex(1000 + n, { size: 32 }),
    transactionIndex: '0x0',
    logIndex: '0x0',
    removed: false,
  };
}

/** `TextChanged(node, indexedKey, key)`: the embedded chain's PublicResolver's. */
const keyOnlyText = (n: number, key: string) =>
  rawLog(
    n,
    encodeEventTopics({ abi: [keyOnlyTextChanged!], eventName: 'TextChanged', args: { node: NODE, indexedKey: key } }),
    encodeAbiParameters([{ type: 'string' }], [key]),
  );

/** `TextChanged(node, indexedKey, key, value)`: ENS's current PublicResolver's (mainnet's). */
const valuedText = (n: number, key: string, value: string) =>
  rawLog(
    n,
    encodeEventTopics({ abi: [valuedTextChanged!], eventName: 'TextChanged', args: { node: NODE, indexedKey: key } }),
    encodeAbiParameters([{ type: 'string' }, { type: 'string' }], [key, value]),
  );

const addressChanged = (n: number, coinType: bigint, newAddress: Hex) =>
  rawLog(
    n,
    encodeEventTopics({ abi: resolverEventsAbi, eventName: 'AddressChanged', args: { node: NODE } }),
    encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [coinType, newAddress]),
  );

/** `VersionChanged(node, newVersion)`: `clearRecords` dropped every record of the name. */
const versionChanged = (n: number) =>
  rawLog(
    n,
    encodeEventTopics({ abi: resolverVersionEventAbi, eventName: 'VersionChanged', args: { node: NODE } }),
    encodeAbiParameters([{ type: 'uint64' }], [BigInt(n)]),
  );

/** A node whose resolver holds `logs`; eth_getLogs answers those whose topic0 the request asks for, as a node does. */
function chainNode(logs: ReturnType<typeof rawLog>[], texts: Record<string, string> = {}) {
  const calls: string[] = [];
  const request = async ({ method, params }: { method: string; params: unknown[] }) => {
    if (method === 'eth_getLogs') {
      const filter = params[0] as { address?: Address; topics?: (Hex | Hex[] | null)[] };
      if (filter.address !== undefined && filter.address.toLowerCase() !== RESOLVER) return [];
      const topic0 = filter.topics?.[0];
      const asked = topic0 == null ? null : Array.isArray(topic0) ? topic0 : [topic0];
      return logs.filter((log) => asked === null || asked.includes(log.topics[0]!));
    }
    if (method === 'eth_call') {
      const { args } = decodeFunctionData({ abi: resolverReadAbi, data: (params[0] as { data: Hex }).data });
      calls.push(`text ${args[1]}`);
      return encodeFunctionResult({ abi: resolverReadAbi, functionName: 'text', result: texts[args[1]] ?? '' });
    }
    throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
  };
  const client = createPublicClient({ chain: mainnet, transport: custom({ request }, { retryCount: 0 }) });
  return { client: client as ChainRpcClient, calls };
}

async function recordEvents(node: ReturnType<typeof chainNode>) {
  const book = new EnsNameBook('eth');
  book.learnName('alice.eth');
  return ensLogEvents({
    client: node.client,
    contracts: { registry: REGISTRY, registrar: REGISTRAR, resolver: RESOLVER },
    book,
    range: { chainId: 1, fromBlock: 1n, toBlock: 2n, blockTime: async (n) => Number(n) * 1000 },
    records: true,
  });
}

describe('ens.record_changed comes from both forms of the resolver’s TextChanged', () => {
  it('a TextChanged carrying its value (ENS’s current PublicResolver) is an event with that value, read from the log', async () => {
    const node = chainNode([valuedText(1, 'url', 'https://alice.example')]);
    const events = await recordEvents(node);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'ens.record_changed',
      timestamp: 1000,
      data: {
        name: 'alice.eth',
        node: NODE,
        resolver: RESOLVER,
        record: 'text',
        key: 'url',
        value: 'https://alice.example',
        blockNumber: 1,
      },
    });
    expect(node.calls).toEqual([]);
  });

  it('a key-only TextChanged (the embedded chain’s resolver) is an event with the value read as of its block', async () => {
    const node = chainNode([keyOnlyText(2, 'avatar')], { avatar: 'ipfs://avatar' });
    const events = await recordEvents(node);
    expect(events.map((e) => e.data)).toMatchObject([
      { name: 'alice.eth', record: 'text', key: 'avatar', value: 'ipfs://avatar', blockNumber: 2 },
    ]);
    expect(node.calls).toEqual(['text avatar']);
  });

  it('a text cleared on ENS’s current resolver is an event whose value is ""', async () => {
    const events = await recordEvents(chainNode([valuedText(1, 'url', '')]));
    expect(events.map((e) => e.data)).toMatchObject([{ record: 'text', key: 'url', value: '' }]);
  });
});

describe('the per-request record list from resolver logs leaves out the records whose latest log clears them', () => {
  const keysOf = (logs: ReturnType<typeof rawLog>[]) => {
    const source = {
      load: (_key: string, fetch: (signal: AbortSignal) => unknown) => fetch(new AbortController().signal),
    };
    return new ResolverLogKeys({
      client: chainNode(logs).client,
      source: source as unknown as SourceClient,
    }).recordKeys(['alice.eth']);
  };

  it('a text set to "" by ENS’s current resolver is not listed; one set again after is', async () => {
    const [keys] = await keysOf([
      valuedText(1, 'url', 'https://alice.example'),
      valuedText(1, 'email', 'alice@example.com'),
      valuedText(2, 'url', ''),
      valuedText(2, 'email', ''),
      valuedText(3, 'email', 'alice@example.org'),
    ]);
    expect(keys!.textKeys).toEqual(['email']);
  });

  it('a key-only TextChanged cannot say the key was cleared: the key stays listed', async () => {
    const [keys] = await keysOf([keyOnlyText(1, 'avatar'), valuedText(2, 'url', 'https://alice.example')]);
    expect(keys!.textKeys).toEqual(['avatar', 'url']);
  });

  it('an address set to the zero address is not listed, and clearRecords drops every record set before it', async () => {
    const [keys] = await keysOf([
      valuedText(1, 'url', 'https://alice.example'),
      addressChanged(1, 60n, `0x${'ab'.repeat(20)}`),
      addressChanged(1, 0n, '0x0014aa'),
      addressChanged(2, 60n, `0x${'00'.repeat(20)}`),
    ]);
    expect(keys).toEqual({ textKeys: ['url'], coinTypes: [0], contentHash: false });
    const [afterClear] = await keysOf([
      valuedText(1, 'url', 'https://alice.example'),
      addressChanged(1, 0n, '0x0014aa'),
      versionChanged(2),
      valuedText(3, 'email', 'alice@example.org'),
    ]);
    expect(afterClear).toEqual({ textKeys: ['email'], coinTypes: [], contentHash: false });
  });
});
