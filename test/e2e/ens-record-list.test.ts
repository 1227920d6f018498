import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Hex, namehash, parseAbi, stringToHex } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { DEMO_BASE_NAMES, localBaseNamesAddresses } from '../../src/embedded/chain/seed-steps/base-names.js';
import { DEMO_ENS_NAMES, localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { DEMO_ACTIONS } from '../../src/embedded/demo-actions.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const accounts = getDevAccounts().map((a) => a.address);
const setAddrAbi = parseAbi(['function setAddr(bytes32 node, uint256 coinType, bytes a)']);
const OP_COIN_TYPE = 0x8000_000an;
const alice = accounts[1]!;
const demoBase = DEMO_BASE_NAMES.find((demo) => demo.name === 'demo.base.eth')!;
const aliceSeed = DEMO_ENS_NAMES.find((demo) => demo.name === 'alice.eth')!;

/** The detector's cycle in this test (WEBHOOK_POLL_MS): a record set on chain is indexed within one. */
const POLL_MS = 300;

interface RpcCall {
  method: string;
  params: unknown;
}

/** An eth_getLogs from block 0 (what a per-request read of the records would send). */
const fromGenesis = (call: RpcCall) =>
  call.method === 'eth_getLogs' && (call.params as { fromBlock?: string }[] | undefined)?.[0]?.fromBlock === '0x0';

interface RecordList {
  name: string;
  texts: Record<string, string>;
  addresses: Record<string, string>;
  contentHash: string | null;
}

describe('the list of records a name has (ensRecords, allRecords, GET /api/ens/records/{name}, get_ens_records)', () => {
  let server: TestServer;
  let mcp: Client;
  const rpcCalls: RpcCall[] = [];
  const calls = (method: string) => rpcCalls.filter((c) => c.method === method);
  /** Whether an eth_call since the last reset asked a value by `key` (its bytes are in the call's data). */
  const askedKey = (key: string) =>
    calls('eth_call').some((c) => JSON.stringify(c.params).includes(stringToHex(key).slice(2)));
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await server.post('/graphql', { query, variables });
    expect(res.status).toBe(200);
    return (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  };
  const rest = async (name: string): Promise<RecordList> => {
    const res = await server.get(`/api/ens/records/${name}`);
    expect(res.status, name).toBe(200);
    return (await res.json()) as RecordList;
  };
  const tool = async (name: string) => {
    const result = (await mcp.callTool({ name: 'get_ens_records', arguments: { name } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    return JSON.parse((result.content[0] as { text: string }).text) as RecordList;
  };

  beforeAll(async () => {
    server = await startTestServer(
      { ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000', WEBHOOK_POLL_MS: String(POLL_MS) },
      { onRpcRequest: (chain, method, params) => chain === 'ethereum' && rpcCalls.push({ method, params }) },
    );
    mcp = new Client({ name: 'ens-record-list-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    // The index reads the embedded chain's seed from block 0 once, in its first cycles after start.
    await vi.waitFor(async () => expect((await rest('alice.eth')).contentHash).toBe(aliceSeed.contentHash), {
      timeout: 30_000,
      interval: POLL_MS,
    });
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });
  beforeEach(() => {
    rpcCalls.length = 0;
  });

  it('lists every text key, coin and the content hash the seed set on alice.eth, with their values', async () => {
    // A new block: the values the index's wait above read are not reused.
    await server.mineBlock('ethereum');
    rpcCalls.length = 0;
    const list = await rest('alice.eth');
    expect(list.name).toBe('alice.eth');
    expect(list.texts).toMatchObject(aliceSeed.texts);
    expect(list.addresses).toMatchObject({
      eth: alice,
      btc: aliceSeed.coins?.btc,
      sol: aliceSeed.coins?.sol,
      base: alice,
    });
    expect(list.contentHash).toBe(aliceSeed.contentHash);
    // The keys from the store's index (no eth_getLogs from block 0), the values from one Universal Resolver eth_call.
    expect(rpcCalls.filter(fromGenesis)).toEqual([]);
    expect(calls('eth_call')).toHaveLength(1);
  });

  it('GraphQL answers the same list as ensRecords and as allRecords on a profile; 20 profiles read their keys from the index and their values in one eth_call', async () => {
    const { data } = await graphql(`{
      ensRecords(name: "alice.eth") { name texts { key value } addresses { coin coinType address } contentHash }
    }`);
    const list = data?.ensRecords as {
      texts: { key: string; value: string }[];
      addresses: { coin: string; address: string }[];
      contentHash: string;
    };
    expect(Object.fromEntries(list.texts.map((t) => [t.key, t.value]))).toEqual((await rest('alice.eth')).texts);
    expect(list.addresses).toContainEqual({ coin: 'btc', coinType: '0', address: aliceSeed.coins?.btc });
    rpcCalls.length = 0;
    const names = ['alice.eth', 'bob.eth', 'carol.eth'];
    for (let i = names.length; i < 20; i++) names.push(`nobody-${i}.eth`);
    const profiles = await graphql(
      'query ($names: [String!]!) { ensProfiles(names: $names) { name allRecords { texts { key value } contentHash } } }',
      { names },
    );
    const read = profiles.data?.ensProfiles as ({ allRecords: { texts: { key: string }[] } } | null)[];
    expect(read.slice(0, 3).every((p) => p !== null && p.allRecords.texts.length > 0)).toBe(true);
    expect(read.slice(3)).toEqual(Array(17).fill(null));
    expect(rpcCalls.filter(fromGenesis)).toEqual([]);
    // The profiles' read, then one read of every listed key's value.
    expect(calls('eth_call')).toHaveLength(2);
  });

  it('a record set on chain with `npm run demo -- text` is listed on REST, GraphQL and MCP within one detector cycle, with no log read per request', async () => {
    const value = `hello ${Date.now()}`;
    const text = DEMO_ACTIONS.find((a) => a.name === 'text')!;
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', 'org.example.custom', value]);
    const setAt = Date.now();
    await expect
      .poll(async () => (await rest('alice.eth')).texts['org.example.custom'], { timeout: 10_000, interval: 20 })
      .toBe(value);
    // One cycle: the index's next step reads the block (one may have just begun: two intervals, plus the reads of a
    // step on a loaded machine).
    expect(Date.now() - setAt).toBeLessThan(2 * POLL_MS + 2_000);
    expect(rpcCalls.filter(fromGenesis)).toEqual([]);
    const { data } = await graphql('{ ensProfile(name: "alice.eth") { allRecords { texts { key value } } } }');
    const profile = data?.ensProfile as { allRecords: { texts: { key: string; value: string }[] } } | undefined;
    expect(profile?.allRecords.texts).toContainEqual({ key: 'org.example.custom', value });
    expect((await tool('alice.eth')).texts['org.example.custom']).toBe(value);
  });

  it('a text record cleared on chain (`npm run demo -- text alice.eth <key> ""`) leaves the list on REST, GraphQL and MCP, and the index, within one detector cycle', async () => {
    const key = 'org.example.cleared';
    const text = DEMO_ACTIONS.find((a) => a.name === 'text')!;
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', key, 'soon gone']);
    await expect
      .poll(async () => (await rest('alice.eth')).texts[key], { timeout: 10_000, interval: 20 })
      .toBe('soon gone');
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', key, '']);
    const clearedAt = Date.now();
    // The index dropped the key: a read of the list (at a new block: no values reused) no longer asks its value.
    await expect
      .poll(
        async () => {
          await server.mineBlock('ethereum');
          rpcCalls.length = 0;
          const list = await rest('alice.eth');
          return { listed: key in list.texts, read: calls('eth_call').length, asked: askedKey(key) };
        },
        { timeout: 10_000, interval: 20 },
      )
      .toEqual({ listed: false, read: 1, asked: false });
    expect(Date.now() - clearedAt).toBeLessThan(2 * POLL_MS + 2_000);
    const { data } = await graphql('{ ensProfile(name: "alice.eth") { allRecords { texts { key value } } } }');
    const profile = data?.ensProfile as { allRecords: { texts: { key: string }[] } } | undefined;
    expect(profile?.allRecords.texts.map((t) => t.key)).not.toContain(key);
    expect(profile?.allRecords.texts.map((t) => t.key)).toContain('com.twitter');
    expect(Object.keys((await tool('alice.eth')).texts)).not.toContain(key);
    // Set again, it is listed again.
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', key, 'back']);
    await expect.poll(async () => (await rest('alice.eth')).texts[key], { timeout: 10_000, interval: 20 }).toBe('back');
  });

  it('an address cleared on chain (setAddr with no bytes) leaves the list on REST, GraphQL and MCP within one detector cycle', async () => {
    const { wallet } = localChainClients(server.localChain!.rpcUrl, getDevAccounts()[1]!);
    const setAddr = (a: Hex) =>
      wallet.writeContract({
        address: localEnsAddresses().publicResolver,
        abi: setAddrAbi,
        functionName: 'setAddr',
        args: [namehash('alice.eth'), OP_COIN_TYPE, a],
      });
    await setAddr(alice);
    await expect
      .poll(async () => (await rest('alice.eth')).addresses.op, { timeout: 10_000, interval: 20 })
      .toBe(alice);
    await setAddr('0x');
    const clearedAt = Date.now();
    await expect
      .poll(
        async () => {
          await server.mineBlock('ethereum');
          rpcCalls.length = 0;
          const list = await rest('alice.eth');
          // The coin type's bytes in the Universal Resolver's call: addr(node, 0x8000000a).
          const asked = calls('eth_call').some((c) => JSON.stringify(c.params).includes('8000000a'));
          return { listed: 'op' in list.addresses, read: calls('eth_call').length, asked };
        },
        { timeout: 10_000, interval: 20 },
      )
      .toEqual({ listed: false, read: 1, asked: false });
    expect(Date.now() - clearedAt).toBeLessThan(2 * POLL_MS + 2_000);
    const { data } = await graphql('{ ensRecords(name: "alice.eth") { addresses { coin } } }');
    const records = data?.ensRecords as { addresses: { coin: string }[] } | undefined;
    const coins = records?.addresses.map((a) => a.coin);
    expect(coins).toEqual(expect.arrayContaining(['eth', 'btc', 'sol', 'base']));
    expect(coins).not.toContain('op');
    expect(Object.keys((await tool('alice.eth')).addresses)).not.toContain('op');
  });

  it('a base.eth name lists its records from the Base chain’s record index (basenames-record-index), a text set there within one detector cycle', async () => {
    const list = await rest('demo.base.eth');
    const holder = accounts[demoBase.account]!;
    expect(list).toEqual({
      name: 'demo.base.eth',
      texts: demoBase.texts,
      addresses: { eth: holder, base: holder },
      contentHash: demoBase.contentHash,
    });
    const health = (await (await server.get('/api/sources/health')).json()) as {
      sources: { name: string; mode: string }[];
    };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'basenames-record-index', mode: 'local' }));
    expect(health.sources.map((s) => s.name)).not.toContain('basenames-record-events');
    // Set on the Base chain's resolver by the name's holder, then cleared: listed, then gone, each within a cycle.
    const baseRpcUrl = server.localFacilitator!.chain.rpcUrl;
    const { wallet } = localChainClients({ rpcUrl: baseRpcUrl, chainId: 8453 }, getDevAccounts()[demoBase.account]!);
    const setText = (value: string) =>
      wallet.writeContract({
        address: localBaseNamesAddresses().resolver,
        abi: parseAbi(['function setText(bytes32 node, string key, string value)']),
        functionName: 'setText',
        args: [namehash('demo.base.eth'), 'org.example.on-base', value],
      });
    await setText('on base');
    const setAt = Date.now();
    await expect
      .poll(async () => (await rest('demo.base.eth')).texts['org.example.on-base'], { timeout: 10_000, interval: 20 })
      .toBe('on base');
    expect(Date.now() - setAt).toBeLessThan(2 * POLL_MS + 2_000);
    await setText('');
    await expect
      .poll(async () => 'org.example.on-base' in (await rest('demo.base.eth')).texts, { timeout: 10_000, interval: 20 })
      .toBe(false);
  });

  it('404 for an unregistered name, 400 for a bad one; /api/sources/health labels the source', async () => {
    const missing = await server.get('/api/ens/records/nobody-here.eth');
    expect(missing.status).toBe(404);
    const bad = await server.get('/api/ens/records/not a name');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    const health = (await (await server.get('/api/sources/health')).json()) as {
      sources: { name: string; mode: string }[];
    };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'ens-record-index', mode: 'local' }));
    // The per-request read is used only where no index runs.
    expect(health.sources.map((s) => s.name)).not.toContain('ens-record-events');
  });
});
