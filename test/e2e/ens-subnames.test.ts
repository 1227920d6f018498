import { Contract, EnsPlugin, JsonRpcProvider, Network, namehash } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEnsAddresses } from '../../src/embedded/chain/seed-steps/ens.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** The embedded chain's ENS registry: ethers walks it as it walks mainnet's (resolver, wildcard, CCIP-Read). */
const ENS_REGISTRY = localEnsAddresses().registry;

describe('ENS subnames in profiles: their own owner, and unregistered ones 404 on every route (checked with ethers)', () => {
  let server: TestServer;
  let ethers: JsonRpcProvider;
  let owner: string;
  const label = `sub${Date.now()}`;
  const registered = `${label}.offchain.eth`;
  const unregistered = `nobody${Date.now()}.offchain.eth`;

  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '100000', ANONYMOUS_PER_MINUTE_LIMIT: '100000' });
    // ethers v6 against the embedded chain (chain 1): ENS registry lookup, then CCIP-Read to this server's gateway.
    const network = new Network('embedded', 1);
    network.attachPlugin(new EnsPlugin(ENS_REGISTRY, 1));
    ethers = new JsonRpcProvider(server.localChain!.rpcUrl, network, { staticNetwork: network });
    const session = await signIn(server);
    owner = session.address;
    const res = await server.post('/api/subnames/offchain.eth', { label }, bearer(session.token));
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    ethers?.destroy();
    await server?.close();
  });

  it("a registered CCIP subname's profile shows its own owner as registrant and no expiry, not offchain.eth's", async () => {
    // Without an address record the name resolves to its owner: ethers follows the OffchainResolver's CCIP-Read.
    expect(await ethers.resolveName(registered)).toBe(owner);
    const res = await server.get(`/api/ens/${registered}`);
    expect(res.status).toBe(200);
    const profile = await res.json();
    expect(profile).toMatchObject({ name: registered, address: owner, registrant: owner, expiration: null });
    const parent = await (await server.get('/api/ens/offchain.eth')).json();
    expect(profile.registrant).not.toBe(parent.registrant);
    const full = await (await server.get(`/api/profile/full/${registered}`)).json();
    expect(full).toMatchObject({ registrant: owner, expiration: null });
  });

  it('an on-chain subname (pay.alice.eth) shows its registry owner as registrant and no expiry, not alice.eth’s registration', async () => {
    const registry = new Contract(ENS_REGISTRY, ['function owner(bytes32) view returns (address)'], ethers);
    const onChainOwner = await registry.getFunction('owner')(namehash('pay.alice.eth'));
    const profile = await (await server.get('/api/ens/pay.alice.eth')).json();
    const parent = await (await server.get('/api/ens/alice.eth')).json();
    expect(parent.expiration).not.toBeNull();
    expect(profile).toMatchObject({ registrant: onChainOwner, controller: onChainOwner, expiration: null });
    expect(await ethers.resolveName('pay.alice.eth')).toBe(profile.address);
  });

  it('an unregistered label under a served parent is 404 on every route, as ethers finds no address for it', async () => {
    expect(await ethers.resolveName(unregistered)).toBeNull();
    for (const path of [
      `/api/ens/${unregistered}`,
      `/api/ens/resolve/${unregistered}`,
      `/api/profile/full/${unregistered}`,
      `/api/subnames/offchain.eth/${unregistered.split('.')[0]}`,
    ]) {
      const res = await server.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ error: true, code: 'NOT_FOUND' });
    }
    const batch = await (await server.get(`/api/ens/batch?names=${unregistered},${registered}`)).json();
    expect(batch.results).toEqual([
      { name: unregistered, address: null },
      { name: registered, address: owner },
    ]);
  });
});
