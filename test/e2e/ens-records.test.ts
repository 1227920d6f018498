import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getCoderByCoinType } from '@ensdomains/address-encoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, type Hex, hexToBytes, http } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { DEMO_ACTIONS } from '../../src/embedded/demo-actions.js';
import { startRpcCountingServer } from '../helpers/rpc-counting-server.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import type { TestServer } from '../helpers/test-server.js';

const [, alice, bob] = getDevAccounts().map((a) => a.address);
const BASE_COIN_TYPE = 0x8000_2105;
const OP_COIN_TYPE = 0x8000_000a;

/** A coin's address as its chain writes it, from the bytes viem's getEnsAddress({ coinType }) answers. */
const asWritten = (coinType: number, bytes: Hex | null): string | null =>
  bytes === null ? null : getCoderByCoinType(coinType).encode(hexToBytes(bytes));

describe('ENS records by their own keys and addresses of any coin (ENSIP-5, ENSIP-9/11), on REST, GraphQL and MCP', () => {
  let server: TestServer;
  let mcp: Client;
  const rpcMethods: string[] = [];
  const ethCalls = () => rpcMethods.filter((m) => m === 'eth_call').length;
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await server.post('/graphql', { query, variables });
    expect(res.status).toBe(200);
    return (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  };
  const profileTool = async (args: Record<string, unknown>) => {
    const result = (await mcp.callTool({ name: 'get_ens_profile', arguments: args })) as CallToolResult;
    return { isError: result.isError ?? false, body: JSON.parse((result.content[0] as { text: string }).text) };
  };

  beforeAll(async () => {
    // The ENS record index polls Ethereum each detector cycle (and reads the values of the text keys a range changed):
    // one cycle at start (it reads the seed), then none for a minute, so the calls counted here are the requests' own.
    server = await startRpcCountingServer((chain, method) => chain === 'ethereum' && rpcMethods.push(method));
    mcp = new Client({ name: 'ens-records-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });
  beforeEach(() => {
    rpcMethods.length = 0;
  });

  it('GraphQL text(key:) and texts(keys:) answer any text record by its ENS key; an unset key is null, or left out of texts', async () => {
    const { data } = await graphql(`{
      ensProfile(name: "alice.eth") {
        colour: text(key: "org.example.favourite-colour")
        twitter: text(key: "com.twitter")
        avatar: text(key: "avatar")
        unset: text(key: "org.example.never-set")
        texts(keys: ["com.twitter", "org.example.never-set", "org.example.favourite-colour"]) { key value }
      }
    }`);
    expect(data?.ensProfile).toEqual({
      colour: 'blue',
      twitter: 'alice',
      avatar: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      unset: null,
      texts: [
        { key: 'com.twitter', value: 'alice' },
        { key: 'org.example.favourite-colour', value: 'blue' },
      ],
    });
  });

  it('GET /api/ens/{name}?texts=… adds `texts` by ENS keys; `records` keeps its fixed keys; without it the body has no `texts`', async () => {
    const res = await server.get('/api/ens/bob.eth?texts=xyz.example.status,com.twitter,org.example.never-set');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.texts).toEqual({ 'xyz.example.status': 'building', 'com.twitter': 'bob' });
    expect(body.records).toEqual({ twitter: 'bob', github: 'bob-builds' });
    const plain = (await (await server.get('/api/ens/bob.eth')).json()) as Record<string, unknown>;
    expect(plain).toMatchObject({ records: { twitter: 'bob', github: 'bob-builds' } });
    expect(plain).not.toHaveProperty('texts');
    expect(plain).not.toHaveProperty('addresses');
  });

  it('the profile tool takes the same `texts` and `coins` arguments and answers what REST answers', async () => {
    const rest = await (await server.get('/api/ens/alice.eth?texts=org.example.favourite-colour&coins=btc,sol')).json();
    const tool = await profileTool({ name: 'alice.eth', texts: 'org.example.favourite-colour', coins: 'btc,sol' });
    expect(tool).toEqual({ isError: false, body: rest });
    expect(tool.body.texts).toEqual({ 'org.example.favourite-colour': 'blue' });
    expect(Object.keys(tool.body.addresses)).toEqual(['btc', 'sol']);
  });

  it('a bad key or coin is 400 INVALID_PARAMETER on REST and GraphQL alike, an MCP tool error too', async () => {
    const tooMany = Array.from({ length: 21 }, (_, i) => `k${i}`).join(',');
    for (const path of [`/api/ens/alice.eth?texts=${tooMany}`, '/api/ens/alice.eth?coins=not-a-coin']) {
      const res = await server.get(path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({ error: true, code: 'INVALID_PARAMETER' });
    }
    const { errors } = await graphql('{ ensProfile(name: "alice.eth") { coinAddress(coin: "not-a-coin") } }');
    expect(errors?.[0]?.message).toMatch(/^parameter coin: must be a coin type/);
    expect((await profileTool({ name: 'alice.eth', coins: 'not-a-coin' })).isError).toBe(true);
  });

  it('addresses of any coin (ENSIP-9/11): BTC and SOL as their chains write them, EVM chains by name, coin type or eip155:<chain id>', async () => {
    const { data } = await graphql(`{
      ensProfile(name: "alice.eth") {
        btc: coinAddress(coin: "btc")
        base: coinAddress(coin: "eip155:8453")
        eth: coinAddress(coin: "60")
        doge: coinAddress(coin: "doge")
        coinAddresses(coins: ["btc", "sol", "base", "op"]) { coin coinType address }
      }
    }`);
    expect(data?.ensProfile).toEqual({
      btc: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      base: alice,
      eth: alice,
      doge: null,
      coinAddresses: [
        { coin: 'btc', coinType: '0', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
        { coin: 'sol', coinType: '501', address: '7RfHHntUqwPeKEQNkyZ9Piu4vgDtR3A4j3riQHrKfG43' },
        { coin: 'base', coinType: String(BASE_COIN_TYPE), address: alice },
      ],
    });
    const rest = (await (await server.get('/api/ens/bob.eth?coins=btc,eip155:10,2147492101')).json()) as {
      addresses: unknown;
    };
    expect(rest.addresses).toEqual({ btc: 'bc1q6zdp0th5pf0amg2yf2cls70mwfvkk6tchg8ulg', op: bob });
  });

  it('what the API answers is what viem (getEnsText, getEnsAddress with coinType) and ethers v6 at default settings read', async () => {
    const rpcUrl = server.localChain!.rpcUrl;
    const viem = createPublicClient({ chain: mainnet, transport: http(rpcUrl, { retryCount: 0 }) });
    const ethers = new JsonRpcProvider(rpcUrl);
    try {
      for (const [name, key] of [
        ['alice.eth', 'org.example.favourite-colour'],
        ['alice.eth', 'com.twitter'],
        ['bob.eth', 'xyz.example.status'],
        ['bob.eth', 'email'],
      ] as const) {
        const body = (await (await server.get(`/api/ens/${name}?texts=${key}`)).json()) as {
          texts: Record<string, string>;
        };
        const ours = body.texts[key] ?? null;
        expect(ours, `${name} ${key}`).toBe(await viem.getEnsText({ name, key }));
        // ethers answers an unset record as '' (the resolver's own answer), viem and the API as null.
        const resolver = await ethers.getResolver(name);
        expect(ours ?? '', `${name} ${key}`).toBe(await resolver!.getText(key));
      }
      for (const [name, coinType] of [
        ['alice.eth', 0],
        ['alice.eth', 501],
        ['alice.eth', BASE_COIN_TYPE],
        ['bob.eth', 0],
        ['bob.eth', OP_COIN_TYPE],
        ['bob.eth', 501],
      ] as const) {
        const body = (await (await server.get(`/api/ens/${name}?coins=${coinType}`)).json()) as {
          addresses: Record<string, string>;
        };
        const ours = Object.values(body.addresses)[0] ?? null;
        const bytes = await viem.getEnsAddress({ name, coinType: BigInt(coinType) });
        expect(ours, `${name} coin ${coinType}`).toBe(asWritten(coinType, bytes));
        // ethers 6 decodes ETH and EVM chains itself (coin types of other chains need a multicoin plugin: null).
        const resolver = await ethers.getResolver(name);
        const fromEthers = await resolver!.getAddress(coinType).catch(() => null);
        if (coinType >= 0x8000_0000) expect(ours, `${name} coin ${coinType}`).toBe(fromEthers);
        else expect(fromEthers).toBeNull();
      }
    } finally {
      ethers.destroy();
    }
  });

  it('20 names × 10 text keys and 2 coins, asked in one GraphQL request, are ONE eth_call', async () => {
    await server.mineBlock('ethereum');
    rpcMethods.length = 0;
    const names = ['alice.eth', 'bob.eth', 'carol.eth', 'pay.alice.eth'];
    for (let i = names.length; i < 20; i++) names.push(`nobody-${i}.eth`);
    const keys = ['com.twitter', 'com.github', 'url', 'description', 'email', 'avatar', 'header'];
    keys.push('org.example.favourite-colour', 'xyz.example.status', 'org.example.never-set');
    const { data } = await graphql(
      'query ($names: [String!]!, $keys: [String!]!) { ensProfiles(names: $names) { name texts(keys: $keys) { key value } coinAddresses(coins: ["btc", "sol"]) { coin address } } }',
      { names, keys },
    );
    const profiles = data?.ensProfiles as ({ name: string; texts: { key: string }[] } | null)[];
    expect(profiles).toHaveLength(20);
    expect(profiles[0]?.texts.map((t) => t.key)).toContain('org.example.favourite-colour');
    expect(profiles[1]?.texts.map((t) => t.key)).toContain('xyz.example.status');
    expect(profiles.slice(4)).toEqual(Array(16).fill(null));
    expect(ethCalls()).toBe(1);
  });

  it('a record set on chain (npm run demo -- text) is answered on REST, GraphQL and MCP at the next block', async () => {
    const value = `hello ${Date.now()}`;
    const text = DEMO_ACTIONS.find((a) => a.name === 'text')!;
    await text.run({ rpcUrl: server.localChain!.rpcUrl }, ['alice.eth', 'org.example.custom', value]);
    const rest = (await (await server.get('/api/ens/alice.eth?texts=org.example.custom')).json()) as {
      texts: Record<string, string>;
    };
    expect(rest.texts).toEqual({ 'org.example.custom': value });
    const { data } = await graphql('{ ensProfile(name: "alice.eth") { text(key: "org.example.custom") } }');
    expect(data?.ensProfile).toEqual({ text: value });
    expect((await profileTool({ name: 'alice.eth', texts: 'org.example.custom' })).body.texts).toEqual({
      'org.example.custom': value,
    });
  });

  it('a CCIP subname registered with BTC, SOL and Base addresses and any text key is answered by the gateway as viem and ethers read it, and by REST and GraphQL', async () => {
    const session = await signIn(server);
    const label = `coins${Date.now()}`;
    const name = `${label}.offchain.eth`;
    const records = {
      addresses: {
        '0': 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        '501': '7RfHHntUqwPeKEQNkyZ9Piu4vgDtR3A4j3riQHrKfG43',
        [String(BASE_COIN_TYPE)]: bob!.toLowerCase(),
      },
      texts: { 'org.example.custom': 'from the gateway', 'com.twitter': 'coins' },
    };
    const res = await server.post('/api/subnames/offchain.eth', { label, records }, bearer(session.token));
    expect(res.status).toBe(200);
    const refused = await server.post(
      '/api/subnames/offchain.eth',
      { label: `${label}x`, records: { addresses: { '0': 'not-bitcoin' } } },
      bearer(session.token),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'INVALID_PARAMETER',
      message: /records\.addresses\.0: is not a btc address/,
    });

    const rpcUrl = server.localChain!.rpcUrl;
    const viem = createPublicClient({ chain: mainnet, transport: http(rpcUrl, { retryCount: 0 }) });
    const ethers = new JsonRpcProvider(rpcUrl);
    try {
      const rest = (await (
        await server.get(`/api/ens/${name}?coins=btc,sol,base&texts=org.example.custom,com.twitter`)
      ).json()) as { addresses: Record<string, string>; texts: Record<string, string> };
      expect(rest.addresses).toEqual({ btc: records.addresses['0'], sol: records.addresses['501'], base: bob });
      expect(rest.texts).toEqual(records.texts);
      const { data } = await graphql(
        `{ ensProfile(name: "${name}") { coinAddress(coin: "sol") text(key: "org.example.custom") } }`,
      );
      expect(data?.ensProfile).toEqual({ coinAddress: records.addresses['501'], text: 'from the gateway' });
      for (const coinType of [0, 501]) {
        const bytes = await viem.getEnsAddress({ name, coinType: BigInt(coinType) });
        expect(asWritten(coinType, bytes), `coin ${coinType}`).toBe(records.addresses[String(coinType) as '0' | '501']);
      }
      expect(await viem.getEnsAddress({ name, coinType: BigInt(BASE_COIN_TYPE) })).toBe(bob!.toLowerCase());
      expect(await viem.getEnsText({ name, key: 'org.example.custom' })).toBe('from the gateway');
      const resolver = await ethers.getResolver(name);
      expect(await resolver!.getText('org.example.custom')).toBe('from the gateway');
      expect(await resolver!.getAddress(BASE_COIN_TYPE)).toBe(bob);
    } finally {
      ethers.destroy();
    }
  });

  it('avatars per ENSIP-12: an NFT the name’s address holds shows its image, as viem and ethers read it; one it does not hold shows none, as ethers', async () => {
    const rpcUrl = server.localChain!.rpcUrl;
    const viem = createPublicClient({ chain: mainnet, transport: http(rpcUrl, { retryCount: 0 }) });
    const ethers = new JsonRpcProvider(rpcUrl);
    try {
      const held = (await (await server.get('/api/ens/avatar/nft.eth')).json()) as { avatar: string; type: string };
      expect(held).toMatchObject({
        avatar: expect.stringMatching(/^https:\/\/ipfs\.io\/ipfs\/bafy.+\/1\.png$/),
        type: 'nft',
      });
      // viem requests each image before it answers it: its IPFS gateway here is a local one that serves any image.
      const images = createServer((_, res) => res.writeHead(200, { 'content-type': 'image/png' }).end());
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      const gateway = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
      try {
        const fromViem = await viem.getEnsAvatar({ name: 'nft.eth', assetGatewayUrls: { ipfs: gateway } });
        expect(fromViem?.replace(gateway, 'https://ipfs.io')).toBe(held.avatar);
      } finally {
        images.close();
      }
      // ethers links IPFS through gateway.ipfs.io, the API and viem through ipfs.io: the same path.
      const fromEthers = await (await ethers.getResolver('nft.eth'))!.getAvatar();
      expect(fromEthers?.replace('https://gateway.ipfs.io/', 'https://ipfs.io/')).toBe(held.avatar);
      const profile = (await (await server.get('/api/ens/nft.eth')).json()) as { avatar: string; contentHash: string };
      expect(profile.avatar).toBe(held.avatar);

      expect((await server.get('/api/ens/avatar/borrowed.eth')).status).toBe(404);
      expect(((await (await server.get('/api/ens/borrowed.eth')).json()) as { avatar: unknown }).avatar).toBeNull();
      expect(await (await ethers.getResolver('borrowed.eth'))!.getAvatar()).toBeNull();
    } finally {
      ethers.destroy();
    }
  });

  it('a header by the avatar’s rules, and content hashes as URIs: bzz:// as ethers reads it, onion3:// which ethers does not decode', async () => {
    const { data } = await graphql(
      '{ a: ensProfile(name: "nft.eth") { header contentHash } b: ensProfile(name: "borrowed.eth") { header contentHash } }',
    );
    expect(data).toEqual({
      a: {
        header: 'https://arweave.net/ys7Y6FeI6_bDyKN6Gsx2x-HZ5ZtF3sqHSmy3E8rSe0c',
        contentHash: 'bzz://d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162',
      },
      b: { header: null, contentHash: 'onion3://p53lf57qovyuvwsc6xnrppyply3vtqm7l6pcobkmyqsiofyeznfu5uqd' },
    });
    const ethers = new JsonRpcProvider(server.localChain!.rpcUrl);
    try {
      expect(await (await ethers.getResolver('nft.eth'))!.getContentHash()).toBe(
        'bzz://d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162',
      );
      await expect((await ethers.getResolver('borrowed.eth'))!.getContentHash()).rejects.toThrow(
        /unsupported content hash/,
      );
    } finally {
      ethers.destroy();
    }
  });
});
