import { namehash, parseAbi } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { expectEnvelope } from '../helpers/error-envelope.js';
import { localChainClients } from '../helpers/local-chain-clients.js';
import { startRpcCountingServer } from '../helpers/rpc-counting-server.js';
import type { TestServer } from '../helpers/test-server.js';

const [, alice, bob, carol, dave] = getDevAccounts().map((a) => a.address);
const ens = localEnsAddresses();

describe('ENS identity on the embedded chain (ENS’s published contracts, our Universal Resolver and .eth registrar)', () => {
  let server: TestServer;
  const rpcMethods: string[] = [];
  const ethCalls = () => rpcMethods.filter((m) => m === 'eth_call').length;

  beforeAll(async () => {
    // The ENS record index polls Ethereum each detector cycle: one cycle at start (it reads the seed), then none for
    // a minute, so the calls counted here are the requests' own.
    server = await startRpcCountingServer((chain, method) => chain === 'ethereum' && rpcMethods.push(method));
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    rpcMethods.length = 0;
  });

  it('GET /api/ens/resolve/{name} answers {name, address} for a normalised name, light tier', async () => {
    const res = await server.get('/api/ens/resolve/Alice.ETH');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'alice.eth', address: alice });
    expect(res.headers.get('x-ratelimit-tier')).toBe('light');
    expect(await (await server.get('/api/ens/resolve/pay.alice.eth')).json()).toEqual({
      name: 'pay.alice.eth',
      address: alice,
    });
  });

  it('an invalid name or address is 400 INVALID_PARAMETER; unregistered or expired is 404', async () => {
    await expectEnvelope(await server.get('/api/ens/resolve/bad%20name.eth'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/ens/resolve/eth'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/ens/reverse/0x1234'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/ens/resolve/nobody-here.eth'), 404, 'NOT_FOUND');
    // expired.eth still has a resolver and an address on chain, but its registration ran out.
    await expectEnvelope(await server.get('/api/ens/resolve/expired.eth'), 404, 'NOT_FOUND');
    await expectEnvelope(await server.get('/api/ens/expired.eth'), 404, 'NOT_FOUND');
    await expectEnvelope(await server.get('/api/ens/avatar/expired.eth'), 404, 'NOT_FOUND');
  });

  it('GET /api/ens/{name} answers the profile: address, avatar, content hash, records, expiration, registrant, controller, resolver', async () => {
    const res = await server.get('/api/ens/alice.eth');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('medium');
    const profile = (await res.json()) as Record<string, unknown>;
    expect(profile).toEqual({
      name: 'alice.eth',
      address: alice,
      avatar: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      contentHash: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      records: {
        twitter: 'alice',
        github: 'alice-codes',
        url: 'https://alice.example.org',
        description: 'Alice of the local chain',
        email: 'alice@example.org',
        'com.discord': 'alice.eth',
      },
      expiration: expect.any(String),
      registrant: alice,
      controller: alice,
      resolver: ens.publicResolver,
    });
    const expiresIn = Date.parse(profile.expiration as string) - Date.now();
    expect(expiresIn).toBeGreaterThan(360 * 86_400_000);
    // One read: the Universal Resolver multicall, registry owner and registrar entries in one eth_call.
    expect(ethCalls()).toBe(1);
  });

  it('registrant (registrar token holder) and controller (registry owner) can differ', async () => {
    const profile = (await (await server.get('/api/ens/carol.eth')).json()) as Record<string, unknown>;
    expect(profile).toMatchObject({
      registrant: carol,
      controller: dave,
      address: carol,
      contentHash: null,
      records: { url: 'https://carol.example.org' },
    });
  });

  it('GET /api/ens/avatar/{name} turns ENSIP-12 records into links without fetching them', async () => {
    expect(await (await server.get('/api/ens/avatar/bob.eth')).json()).toEqual({
      avatar: 'https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/bob.png',
      type: 'ipfs',
      record: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/bob.png',
    });
    expect(await (await server.get('/api/ens/avatar/carol.eth')).json()).toMatchObject({
      avatar: 'https://avatars.example.org/carol.png',
      type: 'https',
    });
    expect(await (await server.get('/api/ens/avatar/alice.eth')).json()).toMatchObject({ type: 'data' });
    await expectEnvelope(await server.get('/api/ens/avatar/pay.alice.eth'), 404, 'NOT_FOUND');
  });

  it('GET /api/ens/reverse/{address} answers {name} only when the primary name resolves back (forward check)', async () => {
    expect(await (await server.get(`/api/ens/reverse/${alice.toLowerCase()}`)).json()).toEqual({ name: 'alice.eth' });
    expect(await (await server.get(`/api/ens/reverse/${bob}`)).json()).toEqual({ name: 'bob.eth' });
    // dave claims alice.eth as primary name; alice.eth resolves to alice.
    await expectEnvelope(await server.get(`/api/ens/reverse/${dave}`), 404, 'NOT_FOUND');
    // carol never set a primary name.
    await expectEnvelope(await server.get(`/api/ens/reverse/${carol}`), 404, 'NOT_FOUND');
  });

  it('GET /api/ens/batch with 100 names makes exactly 1 eth_call upstream; count is the number of results, resolved how many resolved', async () => {
    const names = [
      'alice.eth',
      'bob.eth',
      'carol.eth',
      'expired.eth',
      ...Array.from({ length: 96 }, (_, i) => `unregistered-${i}.eth`),
    ];
    const res = await server.get(`/api/ens/batch?names=${names.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    const body = (await res.json()) as {
      results: { name: string; address: string | null }[];
      count: number;
      resolved: number;
    };
    expect(Object.keys(body)).toEqual(['results', 'count', 'resolved']);
    expect(body.results).toHaveLength(100);
    expect(body.results.slice(0, 4)).toEqual([
      { name: 'alice.eth', address: alice },
      { name: 'bob.eth', address: bob },
      { name: 'carol.eth', address: carol },
      { name: 'expired.eth', address: null },
    ]);
    expect(body.count).toBe(100);
    expect(body.resolved).toBe(3);
    expect(ethCalls()).toBe(1);
  });

  it('a batch above 100 names, or with an invalid name, is 400', async () => {
    const names = Array.from({ length: 101 }, (_, i) => `n${i}.eth`);
    await expectEnvelope(await server.get(`/api/ens/batch?names=${names.join(',')}`), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get('/api/ens/batch?names=alice.eth,bad%20name.eth'), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.post('/api/ens/bulk', { names }), 400, 'INVALID_PARAMETER');
    expect(ethCalls()).toBe(0);
  });

  it('POST /api/ens/bulk answers {results}', async () => {
    const res = await server.post('/api/ens/bulk', { names: ['bob.eth', 'BOB.eth', 'nobody-here.eth'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      results: [
        { name: 'bob.eth', address: bob },
        { name: 'nobody-here.eth', address: null },
      ],
    });
  });

  it('GET /api/ens/domains/{address} lists held names from the chain’s events, paginated (default 50)', async () => {
    const res = await server.get(`/api/ens/domains/${carol}`);
    expect(res.status).toBe(200);
    // expired.eth (controlled by carol) is left out: its registration ran out.
    expect(await res.json()).toEqual({
      data: [{ name: 'carol.eth', registrant: carol, controller: dave, expiration: expect.any(String) }],
      pagination: { limit: 50, offset: 0, total: 1, hasMore: false },
    });
    const asController = (await (await server.get(`/api/ens/domains/${dave}?limit=1`)).json()) as {
      data: { name: string }[];
    };
    expect(asController.data.map((d) => d.name)).toEqual(['carol.eth']);
    await expectEnvelope(await server.get(`/api/ens/domains/${alice}?limit=101`), 400, 'INVALID_PARAMETER');
    const health = (await (await server.get('/api/sources/health')).json()) as {
      sources: { name: string; mode: string }[];
    };
    expect(health.sources).toContainEqual(expect.objectContaining({ name: 'ens-events', mode: 'local' }));
  });

  it('a GraphQL query for 50 profiles makes as many upstream calls as one for 1 profile', async () => {
    const query = (names: string[]) =>
      server.post('/graphql', {
        query: 'query ($n: [String!]!) { ensProfiles(names: $n) { name address registrant } }',
        variables: { n: names },
      });
    await server.mineBlock('ethereum');
    rpcMethods.length = 0;
    const one = await query(['alice.eth']);
    expect(one.status).toBe(200);
    const forOne = [...rpcMethods];
    await server.mineBlock('ethereum');
    rpcMethods.length = 0;
    const fifty = ['alice.eth', 'bob.eth', 'carol.eth', ...Array.from({ length: 47 }, (_, i) => `nobody-${i}.eth`)];
    const res = await query(fifty);
    const body = (await res.json()) as { data: { ensProfiles: ({ name: string; address: string } | null)[] } };
    expect(body.data.ensProfiles).toHaveLength(50);
    expect(body.data.ensProfiles.slice(0, 3)).toEqual([
      { name: 'alice.eth', address: alice, registrant: alice },
      { name: 'bob.eth', address: bob, registrant: bob },
      { name: 'carol.eth', address: carol, registrant: carol },
    ]);
    expect(body.data.ensProfiles.slice(3).every((p) => p === null)).toBe(true);
    expect(rpcMethods).toEqual(forOne);
    expect(ethCalls()).toBe(1);
  });

  it('GET /api/profile/full/{name} is one federated operation: ENS profile → wallet → its primary name, heavy tier', async () => {
    const res = await server.get('/api/profile/full/alice.eth');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'alice.eth',
      address: alice,
      records: { twitter: 'alice' },
      wallet: { address: alice, primaryName: 'alice.eth' },
    });
    await expectEnvelope(await server.get('/api/profile/full/nobody-here.eth'), 404, 'NOT_FOUND');
  });

  it('GraphQL { ensProfile(name) { name } } is Medium like its REST twin /api/ens/{name}; with the wallet it is Heavy like /api/profile/full', async () => {
    const tierOf = async (query: string) => {
      const res = await server.post('/graphql', { query });
      expect(res.status).toBe(200);
      return res.headers.get('x-ratelimit-tier');
    };
    expect(await tierOf('{ ensProfile(name: "alice.eth") { name } }')).toBe('medium');
    expect(await tierOf('{ ensProfile(name: "alice.eth") { name address records { key value } resolver } }')).toBe(
      'medium',
    );
    expect(await tierOf('{ ensProfile(name: "alice.eth") { name wallet { address primaryName } } }')).toBe('heavy');
    // More than any row runs (a wallet's 100 newest casts): the field's heaviest row.
    expect(
      await tierOf(
        '{ ensProfile(name: "alice.eth") { wallet { farcasterUser { recentCasts(limit: 100) { hash } } } } }',
      ),
    ).toBe('heavy');
  });

  it('the federated Wallet entity takes an address in any case and answers its checksummed form', async () => {
    const res = await server.post('/graphql', {
      query:
        'query ($n: String!) { ensProfile(name: $n) { wallet { address primaryName } } ensReverse(address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8") { name address } }',
      variables: { n: 'bob.eth' },
    });
    expect(await res.json()).toEqual({
      data: {
        ensProfile: { wallet: { address: bob, primaryName: 'bob.eth' } },
        ensReverse: { name: 'alice.eth', address: alice },
      },
    });
  });

  describe('chain reads are exact as of the request’s arrival (docs/api-contract.md#data-freshness)', () => {
    const setTextAbi = parseAbi(['function setText(bytes32 node, string key, string value)']);
    const headReads = () => rpcMethods.filter((m) => m === 'eth_blockNumber').length;

    it('a block mined before the request arrived is never missed: a record set in a block mined between two requests is in the second’s answer', async () => {
      const bobUrl = async () => {
        const res = await server.post('/graphql', {
          query: '{ ensProfile(name: "bob.eth") { records { key value } } }',
        });
        const body = (await res.json()) as { data: { ensProfile: { records: { key: string; value: string }[] } } };
        return body.data.ensProfile.records.find((record) => record.key === 'url')?.value ?? null;
      };
      expect(await bobUrl()).toBeNull();
      const { client, wallet } = localChainClients(server.localChain!.rpcUrl, getDevAccounts()[2]!);
      const hash = await wallet.writeContract({
        address: ens.publicResolver,
        abi: setTextAbi,
        functionName: 'setText',
        args: [namehash('bob.eth'), 'url', 'https://bob.example.org'],
      });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      expect(await bobUrl()).toBe('https://bob.example.org');
    });

    it('one request resolving in several rounds makes one eth_blockNumber: GraphQL, its REST row, and a batch of rows', async () => {
      const query = '{ ensProfile(name: "alice.eth") { name wallet { address primaryName } } }';
      await server.mineBlock('ethereum');
      rpcMethods.length = 0;
      expect(await (await server.post('/graphql', { query })).json()).toEqual({
        data: { ensProfile: { name: 'alice.eth', wallet: { address: alice, primaryName: 'alice.eth' } } },
      });
      expect(headReads()).toBe(1);

      await server.mineBlock('ethereum');
      rpcMethods.length = 0;
      const row = await server.get('/api/profile/full/bob.eth');
      expect(row.status).toBe(200);
      expect(await row.json()).toMatchObject({ name: 'bob.eth', wallet: { address: bob, primaryName: 'bob.eth' } });
      expect(headReads()).toBe(1);

      await server.mineBlock('ethereum');
      rpcMethods.length = 0;
      const batch = await server.post('/api/batch', {
        requests: ['/api/profile/full/alice.eth', '/api/ens/carol.eth'].map((path) => ({ path })),
      });
      const results = ((await batch.json()) as { results: { status: number }[] }).results;
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(headReads()).toBe(1);
    });
  });
});
