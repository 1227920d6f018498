import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, type Hex, namehash } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChainRpcClient } from '../../src/sources/rpc/chain-clients.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { ensRecordIndex } from '../../src/webhooks/detectors/ens-record-index.js';

const RESOLVER: Address = '0x1111111111111111111111111111111111111111';
const NODE = namehash('alice.eth');

/** A resolver event as viem's getLogs decodes it. */
type Log = { eventName: string; address: Address; args: Record<string, unknown> };
const text = (key: string, value?: string): Log => ({
  eventName: 'TextChanged',
  address: RESOLVER,
  args: value === undefined ? { node: NODE, key } : { node: NODE, key, value },
});
const addr = (coinType: bigint, newAddress: Hex): Log => ({
  eventName: 'AddressChanged',
  address: RESOLVER,
  args: { node: NODE, coinType, newAddress },
});
const contenthash = (hash: Hex): Log => ({
  eventName: 'ContenthashChanged',
  address: RESOLVER,
  args: { node: NODE, hash },
});

/**
 * A chain of one block per step: each step's logs, and the text values the resolver holds at its end (a key missing
 * from `values` fails its read).
 */
function fakeChain() {
  let head = -1n;
  let logs: Log[] = [];
  let values: Record<string, string> = {};
  const reads: { keys: string[]; blockNumber: bigint | undefined }[] = [];
  const client = {
    getBlock: async () => ({ hash: `0x${'ab'.repeat(32)}` }),
    getBlockNumber: async () => head,
    getLogs: async () => logs,
    multicall: async (p: { contracts: { args: readonly [Hex, string] }[]; blockNumber?: bigint }) => {
      reads.push({ keys: p.contracts.map((c) => c.args[1]), blockNumber: p.blockNumber });
      return p.contracts.map((c) =>
        c.args[1] in values
          ? { status: 'success', result: values[c.args[1]] }
          : { status: 'failure', error: new Error('reverted') },
      );
    },
  } as unknown as ChainRpcClient;
  return {
    client,
    reads,
    /** The next block, with these events and the resolver's text values after it. */
    block(next: Log[], after: Record<string, string> = {}) {
      head += 1n;
      logs = next;
      values = after;
    },
  };
}

describe('the ENS record index keeps the keys each name has set, and drops those cleared', () => {
  let dir: string;
  let store: Store;
  let chain: ReturnType<typeof fakeChain>;
  let step: () => Promise<void>;
  const held = async () => (await store.nameRecordKeys([NODE]))[0];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'record-index-'));
    const sqlite = openSqliteStore({ file: join(dir, 'store.sqlite') });
    const cursors = new Map<string, string>();
    // The cursor as the event publisher keeps it (in one store step with the events; none here).
    store = new Proxy(sqlite, {
      get: (target, prop) =>
        prop === 'getCursor'
          ? async (name: string) => cursors.get(name) ?? null
          : (Reflect.get(target, prop) as (...args: unknown[]) => unknown).bind(target),
    });
    chain = fakeChain();
    const detector = ensRecordIndex({
      client: chain.client,
      chainId: 1,
      fromGenesis: true,
      confirmations: 0,
      store,
      publish: async (_events, moved = {}) => {
        for (const [name, value] of Object.entries(moved)) cursors.set(name, value);
        return 0;
      },
      intervalMs: 1000,
    });
    step = () => detector.step();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a key-only TextChanged (the embedded resolver’s) is kept or dropped by the value read at the range’s end, in one multicall', async () => {
    chain.block([text('url'), text('com.twitter'), addr(60n, `0x${'12'.repeat(20)}`), contenthash('0xe301')], {
      url: 'https://alice.example.org',
      'com.twitter': 'alice',
    });
    await step();
    expect(await held()).toEqual({ textKeys: ['url', 'com.twitter'], coinTypes: [60], contentHash: true });
    expect(chain.reads).toEqual([{ keys: ['url', 'com.twitter'], blockNumber: 0n }]);

    chain.block([text('url')], { url: '' });
    await step();
    expect(await held()).toEqual({ textKeys: ['com.twitter'], coinTypes: [60], contentHash: true });
  });

  it('a TextChanged carrying its value (ENS’s current PublicResolver) needs no read; the last event of a key in a range wins', async () => {
    chain.block([text('url', 'a'), text('url', ''), text('email', ''), text('email', 'x@example.org')]);
    await step();
    expect(await held()).toEqual({ textKeys: ['email'], coinTypes: [], contentHash: false });
    expect(chain.reads).toEqual([]);
  });

  it('an address set to none (no bytes, or an EVM chain’s zero address) and a content hash set to none are dropped', async () => {
    chain.block([addr(60n, `0x${'12'.repeat(20)}`), addr(0n, '0x0014'), addr(0x8000_2105n, `0x${'34'.repeat(20)}`)]);
    await step();
    chain.block([addr(60n, `0x${'00'.repeat(20)}`), addr(0x8000_2105n, '0x'), contenthash('0xe301')]);
    await step();
    expect(await held()).toEqual({ textKeys: [], coinTypes: [0], contentHash: true });
    chain.block([contenthash('0x'), addr(0n, '0x')]);
    await step();
    expect(await held()).toEqual({ textKeys: [], coinTypes: [], contentHash: false });
  });

  it('VersionChanged (clearRecords on ENS’s current resolver) drops every key the name held, but those set again after it', async () => {
    chain.block([text('url', 'a'), text('email', 'b'), addr(60n, `0x${'12'.repeat(20)}`), contenthash('0xe301')]);
    await step();
    const clearRecords: Log = { eventName: 'VersionChanged', address: RESOLVER, args: { node: NODE, newVersion: 1n } };
    chain.block([text('com.twitter'), clearRecords, text('email', 'c'), addr(0n, '0x0014')], { 'com.twitter': 'x' });
    await step();
    expect(await held()).toEqual({ textKeys: ['email'], coinTypes: [0], contentHash: false });
    // The key changed before the drop is not read: the drop cleared it.
    expect(chain.reads).toEqual([]);
  });

  it('a read that fails keeps the key: the values read per request leave an empty one out', async () => {
    chain.block([text('url')], {});
    await step();
    expect((await held())?.textKeys).toEqual(['url']);
  });
});
