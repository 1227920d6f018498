import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { DEMO_BASE_NAMES } from '../../src/embedded/chain/seed-steps/base-names.js';
import { DEMO_ENS_NAMES } from '../../src/embedded/chain/seed-steps/ens.js';
import { DEMO_ACTIONS } from '../../src/embedded/demo-actions.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const accounts = getDevAccounts().map((a) => a.address);
const alice = accounts[1]!;
const demoBase = DEMO_BASE_NAMES.find((demo) => demo.name === 'demo.base.eth')!;
const aliceSeed = DEMO_ENS_NAMES.find((demo) => demo.name === 'alice.eth')!;

interface RecordList {
  name: string;
  texts: Record<string, string>;
  addresses: Record<string, string>;
  contentHash: string | null;
}

describe('the list of records a name has (ensRecords, allRecords, GET /api/ens/records/{name}, get_ens_records)', () => {
  let server: TestServer;
  let mcp: Client;
  const rpcMethods: string[] = [];
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
      { ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' },
      { onRpcRequest: (chain, method) => chain === 'ethereum' && rpcMethods.push(method) },
    );
    mcp = new Client({ name: 'ens-record-list-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });
  beforeEach(() => {
    rpcMethods.length = 0;
  });

  it('lists every text key, coin and the content hash the seed set on alice.eth, with their values', async () => {
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
    // The keys from one eth_getLogs, the values from one Universal Resolver eth_call.
    expect(rpcMethods.filter((m) => m === 'eth_getLogs')).toHaveLength(1);
    expect(rpcMethods.filter((m) => m === 'eth_call')).toHaveLength(1);
  });

  it('GraphQL answers the same list as ensRecords and as allRecords on a profile; 20 profiles are one eth_getLogs and one eth_call for their values', async () => {
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
    rpcMethods.length = 0;
    const names = ['alice.eth', 'bob.eth', 'carol.eth'];
    for (let i = names.length; i < 20; i++) names.push(`nobody-${i}.eth`);
    const profiles = await graphql(
      'query ($names: [String!]!) { ensProfiles(names: $names) { name allRecords { texts { key value } contentHash } } }',
      { names },
    );
    const read = profiles.data?.ensProfiles as ({ allRecords: { texts: { key: string }[] } } | null)[];
    expect(read.slice(0, 3).every((p) => p !== null && p.allRecords.texts.length > 0)).toBe(true);
    expect(read.slice(3)).toEqual(Array(17).fill(null));
    expect(rpcMethods.filter((m) => m === 'eth_getLogs')).toHaveLength(1);
    // The profiles' read, then one read of every listed key's value.
    expect(rpcMethods.filter((m) => m === 'eth_call')).toHaveLength(2);
  });

  it('a record set on chain with `npm run demo -- text` is listed on REST, GraphQL and MCP at once (the next block)', async () => {
    const value = `hello ${Date.now()}`;
    const text = DEMO_ACTIONS.find((a) => a.name === 'text')!;
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', 'org.example.custom', value]);
    expect((await rest('alice.eth')).texts['org.example.custom']).toBe(value);
    const { data } = await graphql('{ ensProfile(name: "alice.eth") { allRecords { texts { key value } } } }');
    const profile = data?.ensProfile as { allRecords: { texts: { key: string; value: string }[] } } | undefined;
    expect(profile?.allRecords.texts).toContainEqual({ key: 'org.example.custom', value });
    expect((await tool('alice.eth')).texts['org.example.custom']).toBe(value);
  });

  it('a base.eth name lists its records from the Base chain’s resolver events (basenames-record-events)', async () => {
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
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'basenames-record-events', mode: 'local' }));
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
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'ens-record-events', mode: 'local' }));
  });
});
