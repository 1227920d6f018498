import { getAddress } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { DEMO_COLLECTIBLE, demoAssetAddresses } from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';
import { expectEnvelope } from '../helpers/error-envelope.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const [, wallet1, wallet2, wallet3] = getDevAccounts().map((a) => a.address);
const assets = demoAssetAddresses();
const WALLET_SOURCES = ['etherscan', 'sourcify', 'alchemy-nft', 'coingecko'] as const;

describe('wallet: balances, transactions and NFTs (embedded chain, recorded explorer and NFT replies)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      // Ten times the retries' waits (at most 100 + 200 ms): every retry the policy allows is made on a busy machine.
      UPSTREAM_TIMEOUT_MS: '3000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    for (const source of WALLET_SOURCES) server.replay!.setScenario(source, null);
    server.replay!.resetCounts();
  });

  it('GET /api/wallet/{address}/balance answers ETH and the demo tokens held, each valued in USD', async () => {
    const res = await server.get(`/api/wallet/${wallet1.toLowerCase()}/balance`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('medium');
    const body = await res.json();
    expect(body).toMatchObject({ address: wallet1, chain: 'ethereum', chainId: 1, symbol: 'ETH', priceUsd: 3012.45 });
    expect(Number(body.balance)).toBeGreaterThan(9000);
    expect(body.balanceUsd).toBe(Math.round(Number(body.balance) * 3012.45 * 100) / 100);
    expect(body.tokens).toEqual([
      {
        symbol: 'USDC',
        name: 'USD Coin',
        address: assets.tokens.USDC,
        decimals: 6,
        balance: '2500',
        balanceRaw: '2500000000',
        priceUsd: 0.999912,
        balanceUsd: 2499.78,
      },
      {
        symbol: 'DAI',
        name: 'Dai Stablecoin',
        address: assets.tokens.DAI,
        decimals: 18,
        balance: '1200',
        balanceRaw: '1200000000000000000000',
        priceUsd: 0.999804,
        balanceUsd: 1199.76,
      },
      {
        symbol: 'WETH',
        name: 'Wrapped Ether',
        address: assets.tokens.WETH,
        decimals: 18,
        balance: '1.5',
        balanceRaw: '1500000000000000000',
        priceUsd: 3011.87,
        balanceUsd: 4517.81,
      },
      {
        symbol: 'LINK',
        name: 'ChainLink Token',
        address: assets.tokens.LINK,
        decimals: 18,
        balance: '40',
        balanceRaw: '40000000000000000000',
        priceUsd: 14.82,
        balanceUsd: 592.8,
      },
    ]);
    expect(body.totalUsd).toBeCloseTo(body.balanceUsd + 2499.78 + 1199.76 + 4517.81 + 592.8, 2);
    // Prices of ETH and every held token: one upstream request.
    expect(server.replay!.requestCount('coingecko')).toBe(1);
  });

  it('/balances is the same answer as /balance; tokens with a zero balance are left out', async () => {
    const [one, other] = await Promise.all([
      server.get(`/api/wallet/${wallet2}/balance`),
      server.get(`/api/wallet/${wallet2}/balances`),
    ]);
    const a = await one.json();
    expect(await other.json()).toEqual(a);
    expect(a.tokens.map((t: { symbol: string; balance: string }) => [t.symbol, t.balance])).toEqual([
      ['USDC', '150.5'],
      ['WETH', '0.25'],
    ]);
  });

  it('with the price source down, balances are still answered and USD values are null', async () => {
    server.replay!.setScenario('coingecko', 'down');
    const body = await (await server.get(`/api/wallet/${wallet3}/balance`)).json();
    expect(body.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['DAI', 'LINK']);
    expect(body).toMatchObject({ priceUsd: null, balanceUsd: null, totalUsd: null });
    expect(body.tokens.every((t: { balanceUsd: unknown }) => t.balanceUsd === null)).toBe(true);
  });

  it('a chain parameter takes the five chains by name or ID; anything else is 400; a chain without RPC is 503', async () => {
    expect((await server.get(`/api/wallet/${wallet1}/balance?chain=1`)).status).toBe(200);
    await expectEnvelope(await server.get(`/api/wallet/${wallet1}/balance?chain=solana`), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get(`/api/wallet/${wallet1}/balance?chain=11155111`), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get(`/api/wallet/${wallet1}/balance?chain=arbitrum`), 503, 'SERVICE_UNAVAILABLE');
    await expectEnvelope(await server.get('/api/wallet/0x123/balance'), 400, 'INVALID_PARAMETER');
  });

  it('the full profile joins the wallet subgraph through the Wallet entity: alice.eth shows its balances', async () => {
    const res = await server.get('/api/profile/full/alice.eth');
    expect(res.status).toBe(200);
    const { wallet } = await res.json();
    expect(wallet.address).toBe(wallet1);
    expect(wallet.balance.tokens).toEqual([
      { symbol: 'USDC', balance: '2500', balanceUsd: 2499.78 },
      { symbol: 'DAI', balance: '1200', balanceUsd: 1199.76 },
      { symbol: 'WETH', balance: '1.5', balanceUsd: 4517.81 },
      { symbol: 'LINK', balance: '40', balanceUsd: 592.8 },
    ]);
    const graph = await server.post('/graphql', {
      query: '{ ensProfile(name: "alice.eth") { wallet { balance(chain: "1") { chainId tokens { symbol } } } } }',
    });
    expect((await graph.json()).data.ensProfile.wallet.balance).toEqual({
      chainId: 1,
      tokens: [{ symbol: 'USDC' }, { symbol: 'DAI' }, { symbol: 'WETH' }, { symbol: 'LINK' }],
    });
  });

  it('GET /api/wallet/{address}/transactions pages the explorer list newest first: 20 by default', async () => {
    const res = await server.get(`/api/wallet/${wallet1}/transactions`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 12, hasMore: false });
    expect(body.data).toHaveLength(12);
    const times = body.data.map((t: { timestamp: string }) => Date.parse(t.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(body.data.at(-1)).toMatchObject({
      hash: '0x84a0aeb8fb2117b011485660d5a7265ba86b4b32f84f7e3d734045281e2c7cf2',
      blockNumber: 19031714,
      timestamp: new Date(1704475604 * 1000).toISOString(),
      direction: 'in',
      to: wallet1,
    });
    const failed = body.data.find((t: { status: string }) => t.status === 'failed');
    expect(failed).toMatchObject({ direction: 'out', method: 'approve(address _spender, uint256 _value)', value: '0' });
    const creation = body.data.find((t: { to: string | null }) => t.to === null);
    expect(creation.contractAddress).toBe(getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3'));
    expect(server.replay!.requestCount('etherscan')).toBe(1);
  });

  it('limit and offset select a window; one record past it tells whether more exist', async () => {
    const first = await (await server.get(`/api/wallet/${wallet1}/transactions?limit=5`)).json();
    expect(first.pagination).toEqual({ limit: 5, offset: 0, total: 6, hasMore: true });
    const second = await (await server.get(`/api/wallet/${wallet1}/transactions?limit=5&offset=5`)).json();
    expect(second.pagination).toEqual({ limit: 5, offset: 5, total: 11, hasMore: true });
    const all = await (await server.get(`/api/wallet/${wallet1}/transactions`)).json();
    expect([...first.data, ...second.data]).toEqual(all.data.slice(0, 10));
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'offset=9999']) {
      await expectEnvelope(await server.get(`/api/wallet/${wallet1}/transactions?${bad}`), 400, 'INVALID_PARAMETER');
    }
  });

  it('an address without transactions is an empty page', async () => {
    const body = await (await server.get(`/api/wallet/${wallet3}/transactions`)).json();
    expect(body).toEqual({ data: [], pagination: { limit: 20, offset: 0, total: 0, hasMore: false } });
  });

  it("the explorer's in-band rate limit (HTTP 200, NOTOK) is retried, then a 503; its outage is a 503", async () => {
    server.replay!.setScenario('etherscan', 'rate-limited');
    await expectEnvelope(await server.get(`/api/wallet/${wallet2}/transactions?limit=3`), 503, 'SERVICE_UNAVAILABLE');
    expect(server.replay!.requestCount('etherscan')).toBe(3);
    server.replay!.setScenario('etherscan', 'down');
    await expectEnvelope(await server.get(`/api/wallet/${wallet2}/transactions?limit=4`), 503, 'SERVICE_UNAVAILABLE');
    server.replay!.setScenario('etherscan', 'malformed');
    await expectEnvelope(await server.get(`/api/wallet/${wallet2}/transactions?limit=6`), 503, 'SERVICE_UNAVAILABLE');
  });

  it('GET /api/wallet/{address}/nfts answers the NFT API page with its count', async () => {
    const body = await (await server.get(`/api/wallet/${wallet1}/nfts`)).json();
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 2, hasMore: false });
    expect(body.data.map((n: { tokenId: string }) => n.tokenId)).toEqual(['1', '3']);
    expect(body.data[0]).toMatchObject({
      contract: assets.collectible,
      tokenType: 'ERC721',
      name: 'Demo #1',
      collectionName: 'Demo Collectible',
      balance: '1',
    });
  });

  it('an offset past the first 100 NFTs walks the page keys: two upstream requests', async () => {
    const body = await (await server.get(`/api/wallet/${wallet3}/nfts?limit=10&offset=98`)).json();
    expect(body.pagination).toEqual({ limit: 10, offset: 98, total: 105, hasMore: false });
    expect(body.data.map((n: { tokenId: string }) => n.tokenId)).toEqual([
      '99',
      '100',
      '101',
      '102',
      '103',
      '104',
      '105',
    ]);
    expect(server.replay!.requestCount('alchemy-nft')).toBe(2);
    const firstPage = await (await server.get(`/api/wallet/${wallet3}/nfts?limit=100`)).json();
    expect(firstPage.pagination).toEqual({ limit: 100, offset: 0, total: 105, hasMore: true });
    // The first page is cached: no third request.
    expect(server.replay!.requestCount('alchemy-nft')).toBe(2);
  });

  it('the NFT API failing is a 503', async () => {
    server.replay!.setScenario('alchemy-nft', 'malformed');
    await expectEnvelope(await server.get(`/api/wallet/${wallet2}/nfts`), 503, 'SERVICE_UNAVAILABLE');
  });
});

describe('chain and address utilities', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ANONYMOUS_DAILY_LIMIT: '1000000',
      ANONYMOUS_PER_MINUTE_LIMIT: '1000000',
      UPSTREAM_TIMEOUT_MS: '300',
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    for (const source of WALLET_SOURCES) server.replay!.setScenario(source, null);
    server.replay!.resetCounts();
  });

  it('GET /api/nft/{contract}/{tokenId} decodes on-chain data: metadata', async () => {
    const body = await (await server.get(`/api/nft/${assets.collectible}/1`)).json();
    const minted = DEMO_COLLECTIBLE.tokens[0].metadata;
    expect(body).toMatchObject({
      contract: assets.collectible,
      tokenId: '1',
      owner: wallet1,
      collectionName: 'Demo Collectible',
      collectionSymbol: 'DEMO',
      metadataSource: 'onchain',
      metadataError: null,
      metadata: { name: minted.name, description: minted.description, image: minted.image, externalUrl: null },
    });
    expect(body.tokenUri).toMatch(/^data:application\/json;base64,/);
    expect(body.metadata.attributes).toEqual([
      { traitType: 'Color', value: 'Blue', displayType: null },
      { traitType: 'Level', value: '3', displayType: null },
    ]);
  });

  it('an ipfs token URI is answered as a URL and not fetched; a missing token is 404', async () => {
    const body = await (await server.get(`/api/nft/${assets.collectible}/3`)).json();
    expect(body).toMatchObject({ metadataSource: 'url', metadata: null, tokenUri: DEMO_COLLECTIBLE.tokens[2].uri });
    expect(server.replay!.requestCount()).toBe(0);
    await expectEnvelope(await server.get(`/api/nft/${assets.collectible}/4`), 404, 'NOT_FOUND');
    await expectEnvelope(await server.get(`/api/nft/${assets.collectible}/-1`), 400, 'INVALID_PARAMETER');
    await expectEnvelope(await server.get(`/api/nft/${assets.collectible}/${2n ** 256n}`), 400, 'INVALID_PARAMETER');
  });

  it('GET /api/token/{address} reads an ERC-20; an address that is not one is 404', async () => {
    const body = await (await server.get(`/api/token/${assets.tokens.USDC!.toLowerCase()}`)).json();
    expect(body).toEqual({
      address: assets.tokens.USDC,
      chain: 'ethereum',
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      totalSupply: '1000000000',
      totalSupplyRaw: '1000000000000000',
    });
    await expectEnvelope(await server.get(`/api/token/${wallet1}`), 404, 'NOT_FOUND');
  });

  it('GET /api/abi/{address}: the explorer verified source, else Sourcify, else 404', async () => {
    const usdc = await server.get(`/api/abi/${assets.tokens.USDC}`);
    expect(usdc.status).toBe(200);
    const fromExplorer = await usdc.json();
    expect(fromExplorer).toMatchObject({
      verified: true,
      contractName: 'DemoToken',
      source: 'etherscan',
      proxy: false,
    });
    expect(fromExplorer.abi).toContainEqual(expect.objectContaining({ type: 'function', name: 'balanceOf' }));

    const fromSourcify = await (await server.get(`/api/abi/${assets.tokens.DAI}`)).json();
    expect(fromSourcify).toMatchObject({ verified: false, contractName: 'DemoToken', source: 'sourcify' });
    expect(fromSourcify.abi).toEqual(fromExplorer.abi);

    await expectEnvelope(await server.get(`/api/abi/${assets.tokens.WETH}`), 404, 'NOT_FOUND');
  });

  it('with the explorer down Sourcify still answers; a contract neither can vouch for is 503, not 404', async () => {
    server.replay!.setScenario('etherscan', 'down');
    const body = await (await server.get(`/api/abi/${assets.tokens.DAI}`)).json();
    expect(body).toMatchObject({ source: 'sourcify' });
    await expectEnvelope(await server.get(`/api/abi/${assets.tokens.LINK}`), 503, 'SERVICE_UNAVAILABLE');
  });

  it('GET /api/address/age/{address} is the first transaction (one explorer request); none is 404', async () => {
    const res = await server.get(`/api/address/age/${wallet1}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      address: wallet1,
      firstTransactionAt: new Date(1704475604 * 1000).toISOString(),
      firstTransactionHash: '0x84a0aeb8fb2117b011485660d5a7265ba86b4b32f84f7e3d734045281e2c7cf2',
      firstBlock: 19031714,
    });
    expect(body.ageDays).toBe(Math.floor((Date.now() / 1000 - 1704475604) / 86400));
    expect(server.replay!.requestCount('etherscan')).toBe(1);
    await expectEnvelope(await server.get(`/api/address/age/${wallet3}`), 404, 'NOT_FOUND');
  });

  it('GET /api/address/batch/type tells EOAs from contracts for 100 addresses in order, heavy tier', async () => {
    const strangers = Array.from({ length: 97 }, (_, i) => getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`));
    const asked = [MULTICALL3_ADDRESS, wallet1, assets.collectible, ...strangers];
    const res = await server.get(`/api/address/batch/type?addresses=${asked.join(',')}&chain=ethereum`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-tier')).toBe('heavy');
    const body = await res.json();
    expect(body.count).toBe(100);
    expect(body.results.slice(0, 3).map((r: { address: string; type: string }) => [r.address, r.type])).toEqual([
      [getAddress(MULTICALL3_ADDRESS), 'contract'],
      [wallet1, 'eoa'],
      [assets.collectible, 'contract'],
    ]);
    await expectEnvelope(
      await server.get(`/api/address/batch/type?addresses=${[...asked, wallet2].join(',')}`),
      400,
      'INVALID_PARAMETER',
    );
    await expectEnvelope(
      await server.get(`/api/address/batch/type?addresses=${wallet1},0xnope`),
      400,
      'INVALID_PARAMETER',
    );
    await expectEnvelope(await server.get('/api/address/batch/type?addresses='), 400, 'INVALID_PARAMETER');
  });

  it('GET /api/address/batch/validate judges each entry: syntax and EIP-55 checksum, no upstream', async () => {
    const good = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const badChecksum = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const res = await server.get(
      `/api/address/batch/validate?addresses=${good},${good.toLowerCase()},${badChecksum},0x1234`,
    );
    expect(res.headers.get('x-ratelimit-tier')).toBe('light');
    expect(await res.json()).toEqual({
      count: 4,
      validCount: 2,
      results: [
        { input: good, valid: true, hasChecksum: true, checksummed: good, reason: null },
        { input: good.toLowerCase(), valid: true, hasChecksum: false, checksummed: good, reason: null },
        {
          input: badChecksum,
          valid: false,
          hasChecksum: true,
          checksummed: good,
          reason: 'EIP-55 checksum does not match',
        },
        {
          input: '0x1234',
          valid: false,
          hasChecksum: false,
          checksummed: null,
          reason: 'not 0x followed by 40 hex digits',
        },
      ],
    });
    const tooMany = Array.from({ length: 101 }, () => good).join(',');
    await expectEnvelope(
      await server.get(`/api/address/batch/validate?addresses=${tooMany}`),
      400,
      'INVALID_PARAMETER',
    );
    expect(server.replay!.requestCount()).toBe(0);
  });

  it('GET /api/address/checksum/{address} answers the EIP-55 form', async () => {
    const body = await (await server.get('/api/address/checksum/0x52908400098527886e0f7030069857d2e4169ee7')).json();
    expect(body).toEqual({
      input: '0x52908400098527886e0f7030069857d2e4169ee7',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      isChecksummed: false,
      inputChecksumValid: true,
    });
    await expectEnvelope(await server.get('/api/address/checksum/vitalik.eth'), 400, 'INVALID_PARAMETER');
  });

  it('GET /api/address/code/{address} answers the deployed code, 0x for an EOA', async () => {
    const contract = await (await server.get(`/api/address/code/${MULTICALL3_ADDRESS}`)).json();
    expect(contract).toMatchObject({
      address: getAddress(MULTICALL3_ADDRESS),
      isContract: true,
      codeHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(contract.codeSize).toBe((contract.code.length - 2) / 2);
    const eoa = await (await server.get(`/api/address/code/${wallet1}?chain=1`)).json();
    expect(eoa).toEqual({
      address: wallet1,
      chain: 'ethereum',
      code: '0x',
      codeSize: 0,
      isContract: false,
      codeHash: null,
    });
  });

  it('each documented utility carries its contract price in the x402 configuration', async () => {
    const config = await (await server.get('/.well-known/x402')).json();
    const priceOf = (path: string) => config.accepts.find((a: { path: string }) => a.path === path)?.priceUSD;
    expect(priceOf('/api/abi/{address}')).toBe('0.02');
    expect(priceOf('/api/address/age/{address}')).toBe('0.01');
    expect(priceOf('/api/address/batch/type')).toBe('0.02');
    expect(priceOf('/api/address/batch/validate')).toBe('0.02');
    expect(priceOf('/api/address/checksum/{address}')).toBe('0.005');
    expect(priceOf('/api/address/code/{address}')).toBe('0.01');
  });
});
