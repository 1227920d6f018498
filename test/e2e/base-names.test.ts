import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChainKey } from '../../src/config/chains.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { localBaseNamesAddresses } from '../../src/embedded/chain/seed-steps/base-names.js';
import { deployerAccount } from '../../src/embedded/chain/seed-steps/deployer-accounts.js';
import { loadContractArtifact } from '../../src/sources/rpc/contract-artifacts.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { startRpcCountingServer } from '../helpers/rpc-counting-server.js';
import type { TestServer } from '../helpers/test-server.js';

interface DomainsPage {
  data: { name: string; registrant: string | null; controller: string | null; expiration: string | null }[];
  pagination: { limit: number; offset: number; total: number; hasMore: boolean };
}

const accounts = getDevAccounts().map((a) => a.address);
const [, alice] = accounts;
const demo = accounts[5]!;
const baseNames = localBaseNamesAddresses();

describe('Base names (chain 8453) resolve on Base itself: its registry and L2 resolver, not mainnet', () => {
  let server: TestServer;
  const rpc: { chain: ChainKey; method: string }[] = [];
  const calls = (chain: ChainKey, method = 'eth_call') =>
    rpc.filter((r) => r.chain === chain && r.method === method).length;
  const askedOn = (chain: ChainKey) => rpc.filter((r) => r.chain === chain).length;

  beforeAll(async () => {
    // The ENS record indexes poll Ethereum and Base each detector cycle: one cycle at start (they read the seed), then
    // none for a minute, so the calls counted here are the requests' own.
    server = await startRpcCountingServer((chain, method) => rpc.push({ chain, method }));
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
      count: 3,
      resolved: 2,
    });
    expect(calls('ethereum')).toBe(1);
    expect(calls('base')).toBe(1);
  });

  it('GraphQL ensResolve(name: "demo.base.eth") gives the same answer, from the same read while no Base block is mined', async () => {
    await server.mineBlock('base');
    rpc.length = 0;
    expect(await (await server.get('/api/ens/resolve/demo.base.eth')).json()).toEqual({
      name: 'demo.base.eth',
      address: demo,
    });
    expect(calls('base')).toBe(1);
    const res = await server.post('/graphql', { query: '{ ensResolve(name: "demo.base.eth") { name address } }' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { ensResolve: { name: 'demo.base.eth', address: demo } } });
    expect(calls('base')).toBe(1);
    expect(calls('base', 'eth_blockNumber')).toBe(2);
    expect(askedOn('ethereum')).toBe(0);
  });

  it('the embedded Base chain is the local base chain: gas and health answer for it', async () => {
    const gas = await server.get('/api/gas?chain=base');
    expect(gas.status).toBe(200);
    expect(await gas.json()).toMatchObject({ chainId: 8453 });
    const health = (await (await server.get('/api/sources/health')).json()) as {
      sources: { name: string; mode: string }[];
    };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'rpc:base', mode: 'local' }));
  });

  it('GET /api/ens/domains/{dev account #5} lists demo.base.eth with registrant, controller and expiry, from the Base chain’s registrar events', async () => {
    const res = await server.get(`/api/ens/domains/${demo}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as DomainsPage;
    expect(page).toEqual({
      data: [{ name: 'demo.base.eth', registrant: demo, controller: demo, expiration: expect.any(String) }],
      pagination: { limit: 50, offset: 0, total: 1, hasMore: false },
    });
    expect(Date.parse(page.data[0]!.expiration!) - Date.now()).toBeGreaterThan(360 * 86_400_000);
    // Each chain: one eth_getLogs for the registrar's events, one eth_call for who holds each name now.
    expect([calls('base', 'eth_getLogs'), calls('base')]).toEqual([1, 1]);
    const health = (await (await server.get('/api/sources/health')).json()) as {
      sources: { name: string; mode: string }[];
    };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'basenames-events', mode: 'local' }));
  });

  it('names on both chains make one sorted list, paginated across them (alice.base.eth, then alice.eth)', async () => {
    const page = async (query: string) =>
      (await (await server.get(`/api/ens/domains/${alice}${query}`)).json()) as DomainsPage;
    const all = await page('');
    expect(all.data.map((d) => d.name)).toEqual(['alice.base.eth', 'alice.eth']);
    expect(all.data[0]).toEqual({
      name: 'alice.base.eth',
      registrant: alice,
      controller: alice,
      expiration: expect.any(String),
    });
    expect(all.pagination).toEqual({ limit: 50, offset: 0, total: 2, hasMore: false });
    expect(await page('?limit=1')).toEqual({
      data: [all.data[0]],
      pagination: { limit: 1, offset: 0, total: 2, hasMore: true },
    });
    expect(await page('?limit=1&offset=1')).toEqual({
      data: [all.data[1]],
      pagination: { limit: 1, offset: 1, total: 2, hasMore: false },
    });
    expect(await page('?offset=2')).toEqual({
      data: [],
      pagination: { limit: 50, offset: 2, total: 2, hasMore: false },
    });
  });

  it('a Base name whose registration ran out in the Base chain’s time is left out', async () => {
    // The Base names deployer is a controller of the base.eth registrar: it registers brief.base.eth for an hour.
    const { wallet: registrar, anvil } = localChainClients(
      { rpcUrl: server.localFacilitator!.chain.rpcUrl, chainId: 8453 },
      deployerAccount('baseNames'),
    );
    const names = async () =>
      ((await (await server.get(`/api/ens/domains/${demo}`)).json()) as DomainsPage).data.map((d) => d.name);
    const snapshot = await anvil.snapshot();
    try {
      await registrar.writeContract({
        address: baseNames.registrar,
        abi: loadContractArtifact('EthNameRegistrar').abi,
        functionName: 'register',
        args: ['brief', demo, 3600n],
      });
      expect(await names()).toEqual(['brief.base.eth', 'demo.base.eth']);
      await anvil.increaseTime({ seconds: 2 * 3600 });
      await anvil.mine({ blocks: 1 });
      expect(await names()).toEqual(['demo.base.eth']);
    } finally {
      await anvil.revert({ id: snapshot });
    }
  });
});
