import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/chain/dev-accounts.js';
import { localBaseNamesAddresses } from '../../src/chain/seed-steps/base-names.js';
import type { ChainKey } from '../../src/config/chains.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const accounts = getDevAccounts().map((a) => a.address);
const [, alice] = accounts;
const demo = accounts[5]!;
const baseNames = localBaseNamesAddresses();

describe('Base names (chain 8453) resolve on Base itself: its registry and L2 resolver, not mainnet', () => {
  let server: TestServer;
  const rpc: { chain: ChainKey; method: string }[] = [];
  const calls = (chain: ChainKey, method = 'eth_call') => rpc.filter((r) => r.chain === chain && r.method === method).length;
  const askedOn = (chain: ChainKey) => rpc.filter((r) => r.chain === chain).length;

  beforeAll(async () => {
    server = await startTestServer(
      { ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' },
      { onRpcRequest: (chain, method) => rpc.push({ chain, method }) },
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    rpc.length = 0;
  });

  it('GET /api/ens/resolve/demo.base.eth answers dev account #5 from the Base chain; Ethereum is not asked', async () => {
    const res = await server.get('/api/ens/resolve/Demo.Base.ETH');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'demo.base.eth', address: demo });
    expect(calls('base')).toBe(1);
    expect(askedOn('ethereum')).toBe(0);
  });

  it('GET /api/ens/demo.base.eth answers the profile from Base: records, content hash, registrant and expiry from the registrar', async () => {
    const res = await server.get('/api/ens/demo.base.eth');
    expect(res.status).toBe(200);
    const profile = (await res.json()) as Record<string, unknown>;
    expect(profile).toEqual({
      name: 'demo.base.eth',
      address: demo,
      avatar: null,
      contentHash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      records: { twitter: 'demo_on_base', description: 'A Base name of the local Base chain' },
      expiration: expect.any(String),
      registrant: demo,
      controller: demo,
      resolver: baseNames.resolver,
    });
    expect(Date.parse(profile.expiration as string) - Date.now()).toBeGreaterThan(360 * 86_400_000);
    expect(calls('base')).toBe(1);
    expect(askedOn('ethereum')).toBe(0);
  });

  it('an unregistered Base name is 404 NOT_FOUND', async () => {
    for (const path of ['/api/ens/resolve/nobody.base.eth', '/api/ens/nobody.base.eth']) {
      const res = await server.get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    }
    expect(askedOn('ethereum')).toBe(0);
  });

  it('GET /api/ens/batch mixing a mainnet and a Base name resolves both with one eth_call on each chain', async () => {
    const res = await server.get('/api/ens/batch?names=alice.eth,demo.base.eth,nobody.base.eth');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      results: [
        { name: 'alice.eth', address: alice },
        { name: 'demo.base.eth', address: demo },
        { name: 'nobody.base.eth', address: null },
      ],
      count: 2,
    });
    expect(calls('ethereum')).toBe(1);
    expect(calls('base')).toBe(1);
  });

  it('GraphQL ensResolve(name: "demo.base.eth") gives the same answer', async () => {
    const res = await server.post('/graphql', { query: '{ ensResolve(name: "demo.base.eth") { name address } }' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ensResolve: { name: 'demo.base.eth', address: demo } } });
    expect(calls('base')).toBe(1);
    expect(askedOn('ethereum')).toBe(0);
  });

  it('the embedded Base chain is the local base chain: gas and health answer for it', async () => {
    const gas = await server.get('/api/gas?chain=base');
    expect(gas.status).toBe(200);
    expect(await gas.json()).toMatchObject({ chainId: 8453 });
    const health = (await (await server.get('/api/sources/health')).json()) as { sources: { name: string; mode: string }[] };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'rpc:base', mode: 'local' }));
  });
});
