import { type Address, createTestClient, getAddress, http, parseUnits } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { getDevAccounts } from '../../src/embedded/chain/dev-accounts.js';
import { type LocalChain, startLocalChain } from '../../src/embedded/chain/local-chain.js';
import { seedLocalChain } from '../../src/embedded/chain/seed-local-chain.js';
import {
  DEMO_COLLECTIBLE,
  DEMO_TOKENS,
  demoAssetAddresses,
  demoAssetsStep,
  localTokenList,
} from '../../src/embedded/chain/seed-steps/demo-assets.js';
import { deployMulticall3Step } from '../../src/embedded/chain/seed-steps/multicall3.js';
import { type ChainReads, createChainReads } from '../../src/sources/chain-reads.js';
import { createChainClients } from '../../src/sources/rpc/chain-clients.js';
import { createRpcSourceClients } from '../../src/sources/rpc/rpc-source-clients.js';
import { decodeTokenUri } from '../../src/sources/rpc/token-uri.js';
import { MULTICALL3_ADDRESS } from '../../src/sources/rpc/viem-chains.js';
import { SourceHealthRegistry } from '../../src/sources/source-health.js';
import { tokenListsFor } from '../../src/sources/wallet/token-lists.js';

const wallets = getDevAccounts()
  .slice(1, 5)
  .map((a) => a.address);

describe('wallet and utility chain reads against the seeded local chain, counted per JSON-RPC method', () => {
  let chain: LocalChain;
  let reads: ChainReads;
  let deployments: ReadonlyMap<string, Address>;
  const methods: string[] = [];

  beforeAll(async () => {
    chain = await startLocalChain();
    deployments = await seedLocalChain({ rpcUrl: chain.rpcUrl, steps: [deployMulticall3Step(), demoAssetsStep()] });
    const chains = createChainClients({
      chains: loadConfig({}).chains,
      localRpcUrl: chain.rpcUrl,
      onRequest: (_, m) => methods.push(m),
    });
    const rpc = createRpcSourceClients({ chains, registry: new SourceHealthRegistry(), timeoutMs: 5000 });
    reads = createChainReads({
      chains,
      rpc,
      tokenLists: tokenListsFor({ localChains: ['ethereum'], localTokens: localTokenList(deployments) }),
    });
  });
  afterAll(async () => {
    await chain?.stop();
  });
  beforeEach(() => {
    methods.length = 0;
  });

  it('the demo assets land at addresses fixed by their own deployer, recorded in the deployments', () => {
    const expected = demoAssetAddresses();
    expect(localTokenList(deployments).map((t) => [t.symbol, t.address, t.decimals])).toEqual(
      DEMO_TOKENS.map((t) => [t.symbol, expected.tokens[t.symbol], t.decimals]),
    );
    expect(deployments.get('DemoCollectible')).toBe(expected.collectible);
  });

  it('native and ERC-20 balances of four wallets are read in ONE eth_call (Multicall3 getEthBalance + balanceOf)', async () => {
    const holdings = await reads.holdings('ethereum', wallets);
    expect(methods).toEqual(['eth_call']);
    holdings.forEach((h, w) => {
      expect(h.address).toBe(wallets[w]);
      expect(h.nativeWei).toBeGreaterThan(parseUnits('9000', 18));
      expect(h.tokens.map((t) => [t.token.symbol, t.raw])).toEqual(
        DEMO_TOKENS.map((t) => [t.symbol, parseUnits(t.holdings[w]!, t.decimals)]),
      );
    });
    expect(holdings[0]!.blockNumber).toBeGreaterThan(0n);
  });

  it('ERC-20 name, symbol, decimals and supply are one eth_call; an account without code is not a token', async () => {
    const usdc = await reads.tokenContract('ethereum', demoAssetAddresses().tokens.USDC!);
    expect(usdc).toMatchObject({
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      totalSupply: parseUnits('1000000000', 6),
    });
    expect(methods).toEqual(['eth_call']);
    expect(await reads.tokenContract('ethereum', wallets[0]!)).toBeNull();
    expect(await reads.tokenContract('ethereum', MULTICALL3_ADDRESS)).toBeNull();
  });

  it('an ERC-721 token is read in one eth_call and its data: URI decodes to the minted metadata', async () => {
    const nft = await reads.nftToken('ethereum', demoAssetAddresses().collectible, 1n);
    expect(methods).toEqual(['eth_call']);
    expect(nft).toMatchObject({ owner: wallets[0], collectionName: 'Demo Collectible', collectionSymbol: 'DEMO' });
    const content = decodeTokenUri(nft!.tokenUri!);
    expect(content).toEqual({ kind: 'inline', metadata: DEMO_COLLECTIBLE.tokens[0].metadata, error: null });
    expect(await reads.nftToken('ethereum', demoAssetAddresses().collectible, 99n)).toBeNull();
  });

  it('the kinds of 100 addresses are read in ONE eth_call, without deploying anything', async () => {
    const contracts = [MULTICALL3_ADDRESS, ...Object.values(demoAssetAddresses().tokens)];
    const strangers = Array.from({ length: 100 - contracts.length - wallets.length }, (_, i) =>
      getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`),
    );
    const asked = [...contracts, ...wallets, ...strangers];
    const kinds = await reads.addressKinds('ethereum', asked);
    expect(methods).toEqual(['eth_call']);
    expect(kinds).toHaveLength(100);
    expect(kinds.slice(0, contracts.length).every((k) => k.kind === 'contract' && k.codeSize > 0)).toBe(true);
    expect(kinds.slice(contracts.length).every((k) => k.kind === 'eoa' && k.codeSize === 0)).toBe(true);
  });

  it('an EOA with an EIP-7702 delegation reads as delegated, naming its delegate', async () => {
    const eoa = getAddress('0x00000000000000000000000000000000000077a2');
    const test = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) });
    await test.setCode({ address: eoa, bytecode: `0xef0100${MULTICALL3_ADDRESS.slice(2)}` });
    const [kind] = await reads.addressKinds('ethereum', [eoa]);
    expect(kind).toEqual({
      address: eoa,
      kind: 'delegated',
      codeSize: 23,
      delegatedTo: getAddress(MULTICALL3_ADDRESS),
    });
  });
});
