import { getCoderByCoinType } from '@ensdomains/address-encoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encodeBase58, JsonRpcProvider } from 'ethers';
import { createPublicClient, type Hex, hexToBytes, http, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_BASE_NAMES } from '../../src/embedded/chain/seed-steps/base-names.js';
import { DEMO_ENS_NAMES } from '../../src/embedded/chain/seed-steps/ens.js';
import { demoSubname } from '../../src/embedded/demo-subnames.js';
import { coinTypeOf } from '../../src/sources/ens/coin-addresses.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A demo name and the records its seed set: every text key, every coin (ETH's included), its content hash. */
interface DemoCase {
  name: string;
  texts: string[];
  coins: string[];
  avatar: boolean;
  contentHash: string | null;
}

/** A key no demo name has: unset on every name. */
const UNSET_KEY = 'org.example.never-set';

const CASES: DemoCase[] = [
  // expired.eth is left out: REST answers 404 once a registration ran out, ENS clients still read its records.
  ...DEMO_ENS_NAMES.filter((demo) => demo.name !== 'expired.eth').flatMap((demo) => [
    {
      name: demo.name,
      texts: Object.keys(demo.texts),
      coins: ['eth', ...Object.keys(demo.coins ?? {})],
      avatar: 'avatar' in demo.texts,
      contentHash: demo.contentHash ?? null,
    },
    ...(demo.subnames ?? []).map((sub) => ({
      name: `${sub.label}.${demo.name}`,
      texts: Object.keys(sub.texts ?? {}),
      coins: ['eth'],
      avatar: false,
      contentHash: null,
    })),
  ]),
  // Base names, read on chain 1 through base.eth's OffchainResolver and this gateway.
  ...DEMO_BASE_NAMES.map((demo) => ({
    name: demo.name,
    texts: Object.keys(demo.texts),
    coins: ['eth', 'base'],
    avatar: false,
    contentHash: demo.contentHash ?? null,
  })),
  // The CCIP subname this gateway serves from the first start.
  {
    name: 'dave.offchain.eth',
    texts: Object.keys(demoSubname(0).records.texts),
    coins: ['eth'],
    avatar: false,
    contentHash: null,
  },
];

/** A coin's address as its chain writes it, from the bytes viem's getEnsAddress({ coinType }) answers. */
const asWritten = (coinType: number, bytes: Hex | null): string | null =>
  bytes === null ? null : getCoderByCoinType(coinType).encode(hexToBytes(bytes));

/** ENSIP-11: coin type 60 and 0x80000000 | chain id are EVM chains, which ethers 6 decodes itself. */
const isEvm = (coinType: number) => coinType === 60 || coinType >= 0x8000_0000;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * An `ipfs://` URI with a CIDv1 (dag-pb, base32: `bafy…`) as ethers writes it, with the CIDv0 of the same content
 * (base58 of the multihash: `Qm…`); any other URI as it is.
 */
function asCidV0(uri: string): string {
  const cid = uri.startsWith('ipfs://b') ? uri.slice('ipfs://b'.length) : undefined;
  if (cid === undefined) return uri;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of cid) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  // Version 1, codec dag-pb (0x70), then the multihash.
  expect(bytes.slice(0, 2)).toEqual([0x01, 0x70]);
  return `ipfs://${encodeBase58(Uint8Array.from(bytes.slice(2)))}`;
}

interface Answer {
  texts: Record<string, string | null>;
  coins: Record<string, string | null>;
  avatar: string | null;
  contentHash: string | null;
}

describe('every demo name and record kind, as viem and ethers v6 at default settings read them, answered alike on REST, GraphQL and MCP', () => {
  let server: TestServer;
  let mcp: Client;
  let viem: PublicClient;
  let ethers: JsonRpcProvider;
  const answers = new Map<string, { rest: Answer; graphql: Answer; mcp: Answer }>();

  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
    const body = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
    return { isError: result.isError ?? false, body };
  };

  /** One name on the three surfaces: the texts and coins asked by their ENS keys and coin names, avatar, content hash. */
  async function ask(demo: DemoCase): Promise<{ rest: Answer; graphql: Answer; mcp: Answer }> {
    const keys = [...demo.texts, UNSET_KEY];
    const fill = (found: Record<string, string>, all: string[]) =>
      Object.fromEntries(all.map((k) => [k, found[k] ?? null]));

    const restProfile = await server.get(`/api/ens/${demo.name}?texts=${keys.join(',')}&coins=${demo.coins.join(',')}`);
    expect(restProfile.status, demo.name).toBe(200);
    const rp = (await restProfile.json()) as {
      texts: Record<string, string>;
      addresses: Record<string, string>;
      contentHash: string | null;
    };
    const restAvatar = await server.get(`/api/ens/avatar/${demo.name}`);
    const rest: Answer = {
      texts: fill(rp.texts, keys),
      coins: fill(rp.addresses, demo.coins),
      avatar: restAvatar.status === 404 ? null : ((await restAvatar.json()) as { avatar: string }).avatar,
      contentHash: rp.contentHash,
    };

    const res = await server.post('/graphql', {
      query:
        'query ($name: String!, $keys: [String!]!, $coins: [String!]!) { ensProfile(name: $name) { texts(keys: $keys) { key value } coinAddresses(coins: $coins) { coin coinType address } avatar contentHash } }',
      variables: { name: demo.name, keys, coins: demo.coins },
    });
    const { data } = (await res.json()) as {
      data: {
        ensProfile: {
          texts: { key: string; value: string }[];
          coinAddresses: { coin: string; coinType: string; address: string }[];
          avatar: string | null;
          contentHash: string | null;
        };
      };
    };
    const gp = data.ensProfile;
    for (const c of gp.coinAddresses) expect(c.coinType, c.coin).toBe(String(coinTypeOf(c.coin)));
    const graphql: Answer = {
      texts: fill(Object.fromEntries(gp.texts.map((t) => [t.key, t.value])), keys),
      coins: fill(Object.fromEntries(gp.coinAddresses.map((c) => [c.coin, c.address])), demo.coins),
      avatar: gp.avatar,
      contentHash: gp.contentHash,
    };

    const mp = await tool('get_ens_profile', { name: demo.name, texts: keys.join(','), coins: demo.coins.join(',') });
    expect(mp.isError, demo.name).toBe(false);
    const ma = await tool('get_ens_avatar', { name: demo.name });
    const body = mp.body as { texts: Record<string, string>; addresses: Record<string, string>; contentHash: string };
    return {
      rest,
      graphql,
      mcp: {
        texts: fill(body.texts, keys),
        coins: fill(body.addresses, demo.coins),
        avatar: ma.isError ? null : (ma.body as { avatar: string }).avatar,
        contentHash: body.contentHash,
      },
    };
  }

  beforeAll(async () => {
    server = await startTestServer({ ANONYMOUS_DAILY_LIMIT: '1000000', ANONYMOUS_PER_MINUTE_LIMIT: '1000000' });
    mcp = new Client({ name: 'ens-stock-clients-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const rpcUrl = server.localChain!.rpcUrl;
    viem = createPublicClient({ chain: mainnet, transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient;
    ethers = new JsonRpcProvider(rpcUrl);
    for (const demo of CASES) answers.set(demo.name, await ask(demo));
  });
  afterAll(async () => {
    ethers?.destroy();
    await mcp?.close();
    await server?.close();
  });

  it('REST, GraphQL and MCP answer the same for every demo name: texts, coins, avatar and content hash', () => {
    expect(CASES.map((c) => c.name)).toEqual(
      expect.arrayContaining(['alice.eth', 'pay.alice.eth', 'nft.eth', 'demo.base.eth', 'dave.offchain.eth']),
    );
    for (const demo of CASES) {
      const { rest, graphql, mcp } = answers.get(demo.name)!;
      expect(graphql, demo.name).toEqual(rest);
      expect(mcp, demo.name).toEqual(rest);
      // Every record the seed set is answered.
      for (const key of demo.texts) expect(rest.texts[key], `${demo.name} ${key}`).not.toBeNull();
      expect(rest.texts[UNSET_KEY]).toBeNull();
      expect(rest.coins.eth, demo.name).not.toBeNull();
      expect(rest.contentHash, demo.name).toBe(demo.contentHash);
    }
  });

  it('expired.eth: not found on REST, GraphQL and MCP once its registration ran out, while viem and ethers still read its records on chain', async () => {
    const expired = DEMO_ENS_NAMES.find((demo) => demo.name === 'expired.eth')!;
    expect((await server.get('/api/ens/expired.eth')).status).toBe(404);
    const res = await server.post('/graphql', { query: '{ ensProfile(name: "expired.eth") { name } }' });
    expect(await res.json()).toEqual({ data: { ensProfile: null } });
    const fromMcp = await tool('get_ens_profile', { name: 'expired.eth' });
    expect(fromMcp).toMatchObject({ isError: true, body: { code: 'NOT_FOUND' } });
    expect(await viem.getEnsText({ name: 'expired.eth', key: 'description' })).toBe(expired.texts.description);
    expect(await (await ethers.getResolver('expired.eth'))!.getText('description')).toBe(expired.texts.description);
  });

  it('text records: as viem getEnsText reads them; ethers getText too, an unset key read as ""', async () => {
    for (const demo of CASES) {
      const { rest } = answers.get(demo.name)!;
      const resolver = await ethers.getResolver(demo.name);
      for (const key of [...demo.texts, UNSET_KEY]) {
        expect(rest.texts[key], `${demo.name} ${key}`).toBe(await viem.getEnsText({ name: demo.name, key }));
        expect(rest.texts[key] ?? '', `${demo.name} ${key}`).toBe(await resolver!.getText(key));
      }
    }
  });

  it('addresses of every coin: as viem getEnsAddress({ coinType }) reads them; ethers getAddress(coinType) for EVM chains (others need a multicoin plugin)', async () => {
    for (const demo of CASES) {
      const { rest } = answers.get(demo.name)!;
      const resolver = await ethers.getResolver(demo.name);
      for (const coin of demo.coins) {
        const coinType = coinTypeOf(coin)!;
        const bytes = await viem.getEnsAddress({ name: demo.name, coinType: BigInt(coinType) });
        const fromViem = coinType === 60 ? await viem.getEnsAddress({ name: demo.name }) : asWritten(coinType, bytes);
        expect(rest.coins[coin], `${demo.name} ${coin}`).toBe(fromViem);
        const fromEthers = await resolver!.getAddress(coinType).catch(() => null);
        if (isEvm(coinType)) expect(rest.coins[coin], `${demo.name} ${coin}`).toBe(fromEthers);
        else expect(fromEthers, `${demo.name} ${coin}`).toBeNull();
      }
    }
  });

  it('avatars (ENSIP-12): as viem getEnsAvatar and ethers getAvatar read them, but for an NFT the address does not hold, which viem shows', async () => {
    // viem asks each image's host (HEAD) before it answers a link: here every host answers with an image.
    const realFetch = globalThis.fetch;
    const images = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input, init) =>
        init?.method === 'HEAD'
          ? Promise.resolve(new Response(null, { status: 200, headers: { 'content-type': 'image/png' } }))
          : realFetch(input, init),
      );
    try {
      const withAvatars = CASES.filter((demo) => demo.avatar);
      expect(withAvatars.map((d) => d.name)).toEqual(['alice.eth', 'bob.eth', 'carol.eth', 'nft.eth', 'borrowed.eth']);
      for (const demo of withAvatars) {
        const { rest } = answers.get(demo.name)!;
        const fromViem = await viem.getEnsAvatar({ name: demo.name });
        // ethers links IPFS through gateway.ipfs.io, the API and viem through ipfs.io: the same path.
        const resolver = await ethers.getResolver(demo.name);
        const fromEthers = (await resolver!.getAvatar())?.replace('https://gateway.ipfs.io/', 'https://ipfs.io/');
        expect(rest.avatar, demo.name).toBe(fromEthers ?? null);
        if (demo.name === 'borrowed.eth') {
          expect(rest.avatar).toBeNull();
          expect(fromViem).toMatch(/^https:\/\//);
        } else expect(rest.avatar, demo.name).toBe(fromViem);
      }
    } finally {
      images.mockRestore();
    }
  });

  it('content hashes as URIs: as ethers getContentHash reads them (IPFS as CIDv0, the API CIDv1: the same CID), but onion3, which ethers does not decode', async () => {
    for (const demo of CASES) {
      const { rest } = answers.get(demo.name)!;
      const resolver = await ethers.getResolver(demo.name);
      if (rest.contentHash?.startsWith('onion3://')) {
        await expect(resolver!.getContentHash()).rejects.toThrow(/unsupported content hash/);
        continue;
      }
      const fromEthers = await resolver!.getContentHash();
      expect(rest.contentHash === null ? null : asCidV0(rest.contentHash), demo.name).toBe(fromEthers);
    }
  });
});
