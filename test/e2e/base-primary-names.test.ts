import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, http, namehash, toCoinType } from 'viem';
import { base, mainnet } from 'viem/chains';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChainKey } from '../../src/config/chains.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { loadPublishedContract } from '../../src/embedded/chain/published-contracts.js';
import { localBaseNamesAddresses } from '../../src/embedded/chain/seed-steps/base-names.js';
import { BASE_COIN_TYPE, reverseNameOf } from '../../src/sources/ens/reverse-names.js';
import { localViemChain } from '../../src/sources/rpc/viem-chains.js';
import { startRpcCountingServer } from '../helpers/rpc-counting-server.js';
import type { TestServer } from '../helpers/test-server.js';

const accounts = getDevAccounts().map((a) => a.address);
const [, alice, bob, carol, dave] = accounts;
const demo = accounts[5]!;
const claimant = accounts[6]!;
const baseNames = localBaseNamesAddresses();

describe('Base primary names (Basenames: the name record of <address>.80002105.reverse on Base), forward-checked', () => {
  let server: TestServer;
  const rpc: { chain: ChainKey; method: string }[] = [];
  const calls = (chain: ChainKey, method = 'eth_call') =>
    rpc.filter((r) => r.chain === chain && r.method === method).length;
  const reverse = (addresses: readonly string[]) =>
    server.post('/graphql', {
      query: `{ ${addresses.map((a, i) => `r${i}: ensReverse(address: "${a}") { name address chain }`).join(' ')} }`,
    });

  let mcp: Client;
  /** get_ens_primary_name's answer: the name, or null where it answers NOT_FOUND. */
  const primaryNameTool = async (address: string) => {
    const result = (await mcp.callTool({ name: 'get_ens_primary_name', arguments: { address } })) as CallToolResult;
    const body = JSON.parse((result.content[0] as { text: string }).text) as { name?: string; code?: string };
    if (result.isError) {
      expect(body.code, address).toBe('NOT_FOUND');
      return null;
    }
    return body.name ?? null;
  };

  beforeAll(async () => {
    // The ENS record indexes poll each chain each detector cycle: one cycle at start (they read the seed), then none
    // for a minute, so the calls counted here are the requests' own.
    server = await startRpcCountingServer((chain, method) => rpc.push({ chain, method }));
    mcp = new Client({ name: 'base-primary-names-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });
  beforeEach(() => {
    rpc.length = 0;
  });

  it('GET /api/ens/reverse/{dev account #5} answers {name: "demo.base.eth"}: its Base primary name, as it has none on Ethereum', async () => {
    const res = await server.get(`/api/ens/reverse/${demo.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'demo.base.eth' });
    const graph = await reverse([demo]);
    expect(await graph.json()).toEqual({ data: { r0: { name: 'demo.base.eth', address: demo, chain: 'base' } } });
  });

  it('an address with an Ethereum primary name keeps it, though its Base primary name also resolves back', async () => {
    expect(await (await server.get(`/api/ens/resolve/alice.base.eth`)).json()).toEqual({
      name: 'alice.base.eth',
      address: alice,
    });
    expect(await (await server.get(`/api/ens/reverse/${alice}`)).json()).toEqual({ name: 'alice.eth' });
    expect(await (await reverse([alice])).json()).toEqual({
      data: { r0: { name: 'alice.eth', address: alice, chain: 'ethereum' } },
    });
  });

  it('a Base reverse record naming a name that does not resolve back to the address is refused: 404 NOT_FOUND', async () => {
    // Dev account #6's reverse record on Base says demo.base.eth, which resolves to dev account #5.
    const rpcUrl = server.localFacilitator!.chain.rpcUrl;
    const base = createPublicClient({
      chain: localViemChain({ chainId: 8453, rpcUrl }),
      transport: http(rpcUrl, { retryCount: 0 }),
    });
    const record = await base.readContract({
      address: baseNames.resolver,
      abi: loadPublishedContract('PublicResolver').abi,
      functionName: 'name',
      args: [namehash(reverseNameOf(claimant, BASE_COIN_TYPE))],
    });
    expect(record).toBe('demo.base.eth');
    const res = await server.get(`/api/ens/reverse/${claimant}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
    // Neither chain has a name for carol; dave's Ethereum claim (alice.eth) still fails its own forward check.
    for (const address of [carol, dave]) expect((await server.get(`/api/ens/reverse/${address}`)).status).toBe(404);
  });

  it("viem's getEnsName({ address, coinType: Base's }) on the embedded Ethereum chain reads each Base primary name as GraphQL, REST and MCP answer it (ENSIP-19, through 80002105.reverse and the CCIP gateway); ethers v6 reads the Ethereum ones", async () => {
    const viem = createPublicClient({ chain: mainnet, transport: http(server.localChain!.rpcUrl, { retryCount: 0 }) });
    // ethers at default settings: the chain is chain 1, so ethers uses ENS's Universal Resolver, as on mainnet.
    const ethers = new JsonRpcProvider(server.localChain!.rpcUrl);
    const coinType = toCoinType(base.id);
    const compared: string[] = [];
    try {
      for (const address of [demo, alice, claimant, bob, carol, dave]) {
        const fromViem = await viem.getEnsName({ address, coinType });
        // ethers 6.17 asks the Universal Resolver's reverse(address, coinType) with the gateways it was deployed with:
        // on the embedded chain viem's in-client batch gateway, which ethers does not run (docs/ens-ccip.md).
        await expect(ethers.lookupAddress(address, coinType), address).rejects.toThrow(
          /unsupported protocol x-batch-gateway/,
        );
        const ours = (await (await reverse([address])).json()) as {
          data: { r0: { name: string; chain: string } | null };
        };
        const rest = await server.get(`/api/ens/reverse/${address}`);
        const fromRest = rest.status === 404 ? null : ((await rest.json()) as { name: string }).name;
        const fromMcp = await primaryNameTool(address);
        // The three surfaces answer alike.
        expect({ rest: fromRest, mcp: fromMcp }, address).toEqual({
          rest: ours.data.r0?.name ?? null,
          mcp: ours.data.r0?.name ?? null,
        });
        // Our answer prefers the Ethereum primary name (what viem and ethers read without a coin type): compare with
        // the Base one where ours is it, or where there is none.
        if (ours.data.r0 === null || ours.data.r0.chain === 'base') {
          expect(fromViem, address).toBe(ours.data.r0?.name ?? null);
          compared.push(address);
        } else {
          expect(ours.data.r0.name, address).toBe(await viem.getEnsName({ address }));
          expect(ours.data.r0.name, address).toBe(await ethers.lookupAddress(address));
        }
      }
    } finally {
      ethers.destroy();
    }
    // #5 (a Base name only), #6 (a refused claim), carol and dave (none) are compared with the Base coin type's answer.
    expect(compared).toEqual([demo, claimant, carol, dave]);
    expect(await viem.getEnsName({ address: demo, coinType })).toBe('demo.base.eth');
    // alice.eth is Alice's Ethereum primary name; her Base one is alice.base.eth, which viem reads for Base's coin type.
    expect(await viem.getEnsName({ address: alice, coinType })).toBe('alice.base.eth');
    expect(await viem.getEnsName({ address: alice })).toBe('alice.eth');
    // #6 claims demo.base.eth, whose Base address is #5's: the forward check on chain 1 refuses it, as our API does.
    expect(await viem.getEnsName({ address: claimant, coinType })).toBeNull();
  });

  it('a batch of reverse lookups costs what one costs: per chain one eth_call for the reverse records and one for the forward check', async () => {
    // Alice has a primary name on each chain, so each chain makes both of its reads (at blocks nothing read yet).
    await Promise.all([server.mineBlock('ethereum'), server.mineBlock('base')]);
    rpc.length = 0;
    expect((await reverse([alice])).status).toBe(200);
    const forOne = { ethereum: calls('ethereum'), base: calls('base') };
    // Base: the reverse records in one eth_call, the forward check of the names found in one more. Ethereum: the
    // Universal Resolver's forward-checked reverse, then the .eth registrations of the names found.
    expect(forOne).toEqual({ ethereum: 2, base: 2 });
    await Promise.all([server.mineBlock('ethereum'), server.mineBlock('base')]);
    rpc.length = 0;

    const batch = [alice, bob, carol, dave, demo, claimant, accounts[0]!, accounts[7]!];
    const res = await reverse(batch);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, { name: string; chain: string } | null> };
    expect(batch.map((_, i) => data[`r${i}`]?.name ?? null)).toEqual([
      'alice.eth',
      'bob.eth',
      null,
      null,
      'demo.base.eth',
      null,
      null,
      null,
    ]);
    expect({ ethereum: calls('ethereum'), base: calls('base') }).toEqual(forOne);
  });

  it('addresses without any Base reverse record cost Base one eth_call, with no forward check', async () => {
    expect(await (await reverse([carol, dave])).json()).toEqual({ data: { r0: null, r1: null } });
    expect(calls('base')).toBe(1);
  });

  it('the federated wallet of a Base name shows its Base primary name (GET /api/profile/full/demo.base.eth)', async () => {
    const res = await server.get('/api/profile/full/demo.base.eth');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'demo.base.eth',
      address: demo,
      wallet: { address: demo, primaryName: 'demo.base.eth' },
    });
  });
});
