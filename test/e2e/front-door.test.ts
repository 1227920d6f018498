import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isError, JsonRpcProvider } from 'ethers';
import { createPublicClient, http } from 'viem';
import { mainnet } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptLiteral } from '../../rest-compat/docs/html-escape.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { DEMO_BASE_NAMES } from '../../src/embedded/chain/seed-steps/base-names.js';
import { DEMO_COLLECTIBLE, demoAssetAddresses } from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { DEMO_ENS_NAMES } from '../../src/embedded/chain/seed-steps/ens.js';
import { DEMO_ACTION_LIST } from '../../src/embedded/demo-action-list.js';
import { demoSubname } from '../../src/embedded/demo-subnames.js';
import { graphiqlTabs } from '../../src/http/graphiql-tabs.js';
import { runDemo } from '../../src/server/demo.js';
import { bearer, signIn } from '../helpers/siwe-wallet.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const accounts = getDevAccounts();
/** REST shows these ENS text keys under the contract's names (docs/api-contract.md#ens-resolution-and-profile). */
const ENS_KEY_OF_RECORD: Record<string, string> = { twitter: 'com.twitter', github: 'com.github' };
const RECORD_KEYS = ['twitter', 'github', 'url', 'description', 'email', 'com.discord'];

/**
 * Every demo name: the seeded .eth names and their subnames, the CCIP subname the store serves, and the Base names
 * (which ENS clients on chain 1 reach through base.eth's offchain resolver and this server's gateway).
 */
const DEMO_NAMES = [
  ...DEMO_ENS_NAMES.flatMap((demo) => [demo.name, ...(demo.subnames ?? []).map((sub) => `${sub.label}.${demo.name}`)]),
  `${demoSubname(0).label}.${demoSubname(0).parent}`,
  ...DEMO_BASE_NAMES.map((demo) => demo.name),
];

describe('the front door of the embedded default', () => {
  let server: TestServer;
  let ethers: JsonRpcProvider;

  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '100000',
      ANONYMOUS_PER_MINUTE_LIMIT: '100000',
      WEBHOOK_POLL_MS: '200',
    });
    // ethers v6 exactly as a newcomer writes it: a URL, nothing about ENS.
    ethers = new JsonRpcProvider(server.localChain!.rpcUrl);
  });
  afterAll(async () => {
    ethers?.destroy();
    await server?.close();
  });

  it('GET / is a small landing page linking the docs, GraphiQL, MCP and health; /favicon.ico is the icon', async () => {
    const res = await server.get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await res.text();
    for (const link of [
      '/docs',
      '/graphql',
      '/api/sources/health',
      '/api/health',
      '/.well-known/x402',
      '/ccip/health',
    ]) {
      expect(page).toContain(`href="${link}"`);
    }
    expect(page).toContain('POST /mcp');
    // The call to try is a whole command: an absolute URL, of the host the page was asked from.
    expect(page).toContain(`<pre>curl ${server.url}/api/ens/resolve/alice.eth</pre>`);
    // What it links to answers.
    for (const link of [...page.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]!)) {
      expect((await server.get(link, { accept: 'text/html' })).status, link).toBe(200);
    }
    for (const icon of ['/favicon.ico', '/favicon.svg']) {
      const favicon = await server.get(icon);
      expect(favicon.status, icon).toBe(200);
      expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await favicon.text()).toMatch(/^<svg /);
    }
  });

  it('GraphiQL opens with the example operations of examples/graphql as tabs, the joined ENS → wallet → Farcaster one first', async () => {
    const page = await (await server.get('/graphql', { accept: 'text/html' })).text();
    const tabs = graphiqlTabs();
    expect(tabs[0]!.query).toMatch(/ensProfile[\s\S]*wallet[\s\S]*farcasterUser/);
    expect(tabs.some((tab) => tab.query.includes('tokenPrices'))).toBe(true);
    expect(page).toContain(
      scriptLiteral({ defaultEditorToolsVisibility: 'variables', defaultTabs: tabs, defaultQuery: tabs[0]!.query }),
    );
  });

  it('/api/sources/health gives each embedded chain its loopback rpcUrl, and no other source one', async () => {
    const { sources } = await (await server.get('/api/sources/health')).json();
    const rpcUrls = Object.fromEntries(
      (sources as { name: string; rpcUrl: string | null }[])
        .filter((s) => s.rpcUrl !== null)
        .map((s) => [s.name, s.rpcUrl]),
    );
    expect(rpcUrls).toEqual({
      'rpc:ethereum': server.localChain!.rpcUrl,
      'rpc:base': server.localFacilitator!.chain.rpcUrl,
    });
    for (const url of Object.values(rpcUrls)) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the documented subname example answers on a fresh store: GET /api/subnames/offchain.eth/dave', async () => {
    const res = await server.get('/api/subnames/offchain.eth/dave');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'dave.offchain.eth', owner: accounts[7]!.address });
  });

  it('ethers v6 with default settings agrees with REST on every demo name: resolveName and getText', async () => {
    expect(DEMO_NAMES).toEqual([
      'alice.eth',
      'pay.alice.eth',
      'bob.eth',
      'carol.eth',
      'expired.eth',
      'nft.eth',
      'borrowed.eth',
      'dave.offchain.eth',
      'demo.base.eth',
      'alice.base.eth',
    ]);
    for (const name of DEMO_NAMES) {
      const rest = await server.get(`/api/ens/${name}`);
      const address = await ethers.resolveName(name);
      if (name === 'expired.eth') {
        // Its registration ran out: REST answers 404, while its records stay on chain and ENS clients still read them.
        expect(rest.status).toBe(404);
        expect(address).toBe(accounts[3]!.address);
        continue;
      }
      expect(rest.status, name).toBe(200);
      const profile = (await rest.json()) as { address: string; records: Record<string, string> };
      expect(address, name).toBe(profile.address);
      const resolver = await ethers.getResolver(name);
      for (const key of RECORD_KEYS) {
        // A record never set reads as '' through ethers; REST leaves it out of `records`.
        const text = await resolver!.getText(ENS_KEY_OF_RECORD[key] ?? key);
        expect(text || null, `${name} ${key}`).toBe(profile.records[key] ?? null);
      }
    }
    // A free label under base.eth: REST 404; its resolver (through the gateway) answers no address.
    expect((await server.get('/api/ens/resolve/nobody.base.eth')).status).toBe(404);
    expect(await ethers.resolveName('nobody.base.eth')).toBeNull();
    // A name nobody registered: REST 404; ENS's Universal Resolver reverts ResolverNotFound and ethers 6.17 throws it.
    expect((await server.get('/api/ens/resolve/nobody.eth')).status).toBe(404);
    await expect(ethers.resolveName('nobody.eth')).rejects.toSatisfy(
      (err) => isError(err, 'CALL_EXCEPTION') && err.reason === 'ResolverNotFound(bytes)',
    );
  });

  it('ethers v6 lookupAddress and viem getEnsName agree with REST on every dev account’s Ethereum primary name', async () => {
    const viem = createPublicClient({ chain: mainnet, transport: http(server.localChain!.rpcUrl, { retryCount: 0 }) });
    for (const account of accounts) {
      const { data } = await (
        await server.post('/graphql', { query: `{ ensReverse(address: "${account.address}") { name chain } }` })
      ).json();
      // REST falls back to a Base primary name (Basenames, coin type 0x80002105); ENS clients' lookup reads Ethereum's.
      const ethereumName = data.ensReverse?.chain === 'ethereum' ? data.ensReverse.name : null;
      expect(await viem.getEnsName({ address: account.address }), account.address).toBe(ethereumName);
      const viaEthers = await ethers.lookupAddress(account.address).catch((err: unknown) => {
        // Dev account 4 claims alice.eth, which resolves elsewhere: the Universal Resolver reverts, as on mainnet.
        if (isError(err, 'CALL_EXCEPTION') && err.reason?.startsWith('ReverseAddressMismatch')) return null;
        throw err;
      });
      expect(viaEthers, account.address).toBe(ethereumName);
    }
    expect(await ethers.lookupAddress(accounts[1]!.address)).toBe('alice.eth');
    expect(await ethers.lookupAddress(accounts[2]!.address)).toBe('bob.eth');
  });

  describe('npm run demo: each action sends the transaction behind one webhook event family', () => {
    let receiver: WebhookReceiver;
    /** Each webhook's secret by the event family it takes: one wallet's for wallet.*, another's for ens.* (a free plan has one webhook). */
    const secrets = new Map<string, string>();
    const run = async (args: string[]) => {
      const out: string[] = [];
      expect(await runDemo(args, { env: { API_URL: server.url }, write: (text) => out.push(text) }), out.join('')).toBe(
        0,
      );
      return out.join('');
    };

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      const subscriptions = [
        {
          events: ['wallet.transfer', 'wallet.nft_transfer'],
          filters: { addresses: [accounts[1]!.address, accounts[2]!.address] },
        },
        { events: ['ens.record_changed', 'ens.transfer'], filters: { names: ['alice.eth', 'carol.eth'] } },
      ];
      for (const subscription of subscriptions) {
        const session = await signIn(server);
        const res = await server.post('/api/webhooks', { url: receiver.url, ...subscription }, bearer(session.token));
        expect(res.status).toBe(200);
        const webhook = await res.json();
        secrets.set(subscription.events[0]!.split('.')[0]!, webhook.secret);
        if (subscription.events[0] === 'wallet.transfer') {
          expect((await server.post(`/api/webhooks/${webhook.id}/test`, {}, bearer(session.token))).status).toBe(200);
        }
      }
    });
    afterAll(() => receiver?.close());

    it('--help lists every action; an unknown one is exit 2', async () => {
      const out: string[] = [];
      expect(await runDemo(['bogus'], { env: {}, write: (text) => out.push(text) })).toBe(2);
      for (const action of DEMO_ACTION_LIST) expect(out.join('')).toContain(`  ${action.usage}`);
    });

    it('eth, erc20, nft, text and transfer-name each make their event, signed, with the data the webhooks guide shows', async () => {
      const [alice, bob, carol] = [accounts[1]!.address, accounts[2]!.address, accounts[3]!.address];
      expect(await run(['eth'])).toMatch(/^0.01 ETH from 0x7099…79C8 to 0x3C44…93BC\ntransaction 0x/);
      await run(['erc20']);
      await run(['nft']);
      await run(['text', 'alice.eth', 'url', 'https://alice.example.net']);
      await run(['transfer-name']);
      const expected = [
        { type: 'wallet.transfer', data: { asset: 'ETH', from: alice, to: bob, value: '10000000000000000' } },
        {
          type: 'wallet.transfer',
          data: { asset: demoAssetAddresses().tokens.USDC, from: alice, to: bob, value: '1000000' },
        },
        {
          type: 'wallet.nft_transfer',
          data: {
            contract: demoAssetAddresses().collectible,
            tokenId: String(DEMO_COLLECTIBLE.tokens[2].tokenId),
            from: alice,
            to: bob,
          },
        },
        {
          type: 'ens.record_changed',
          data: { name: 'alice.eth', record: 'text', key: 'url', value: 'https://alice.example.net' },
        },
        { type: 'ens.transfer', data: { name: 'carol.eth', kind: 'registrant', from: carol, to: bob } },
      ];
      const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();
      for (const { type, data } of expected) {
        const [delivery] = await receiver
          .waitFor((d) => d.json.type === type && Object.entries(data).every(([k, v]) => same(d.json.data[k], v)))
          .catch((err: Error) => {
            throw new Error(
              `${err.message}: ${type} ${JSON.stringify(data)} among ${JSON.stringify(receiver.received.map((d) => d.json))}`,
            );
          });
        verifyDelivery(delivery!, secrets.get(type.split('.')[0]!)!);
      }
      // docs/webhooks.md shows one payload of each kind: real deliveries carry exactly its fields.
      const documented = [
        ...readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'webhooks.md'), 'utf8').matchAll(
          /^```json\n(\{[\s\S]*?)^```$/gm,
        ),
      ]
        .map((m) => JSON.parse(m[1]!) as { id: string; type: string; data: Record<string, unknown> })
        .filter((payload) => payload.id.startsWith('evt_'));
      const kind = (e: { type: string; data: Record<string, unknown> }) =>
        e.type !== 'wallet.transfer'
          ? e.type
          : `${e.type} ${e.data.asset !== 'ETH' ? 'ERC-20' : e.data.internal ? 'ETH internal' : 'ETH'}`;
      const shapes = new Map(documented.map((e) => [kind(e), Object.keys(e.data).sort()]));
      await receiver.waitFor((d) => d.json.type === 'ping');
      const real = receiver.received.map((d) => d.json);
      for (const name of [
        'ping',
        'wallet.transfer ETH',
        'wallet.transfer ERC-20',
        'wallet.nft_transfer',
        'ens.record_changed',
        'ens.transfer',
      ]) {
        const delivered = real.find((e) => kind(e) === name);
        expect(delivered, name).toBeDefined();
        expect(Object.keys(delivered!.data).sort(), name).toEqual(shapes.get(name));
      }

      // The name moves back and forth: a second transfer-name hands carol.eth from bob to alice.
      await run(['transfer-name']);
      await receiver.waitFor(
        (d) => d.json.type === 'ens.transfer' && same(d.json.data.from, bob) && same(d.json.data.to, alice),
      );
    });
  });
});
