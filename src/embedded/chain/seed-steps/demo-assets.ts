import { type Address, getContractAddress, parseEther, parseUnits } from 'viem';
import { loadContractArtifact } from '../../../sources/rpc/contract-artifacts.js';
import type { TokenListEntry } from '../../../sources/wallet/token-lists.js';
import type { SeedContext, SeedStep } from '../seed-local-chain.js';
import { deployerAccount, deployerAddress } from './deployer-accounts.js';

/** One ERC-20 of the local chain, standing in for the mainnet token of the same ticker. */
export interface DemoToken {
  symbol: string;
  name: string;
  decimals: number;
  /** Whole tokens per demo wallet (dev accounts 1–4, in order); the deployer keeps the rest. */
  holdings: readonly [string, string, string, string];
}

/**
 * The demo (docs/embedded-default.md#demo-data): the four tokens a wallet answer lists on the embedded chain, and what
 * each demo wallet holds.
 */
export const DEMO_TOKENS: readonly DemoToken[] = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, holdings: ['2500', '150.5', '0', '75'] },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, holdings: ['1200', '0', '10000', '0'] },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, holdings: ['1.5', '0.25', '0', '0'] },
  { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, holdings: ['40', '0', '500', '12.75'] },
];

/** Supply minted of every demo token (whole tokens); far above what the demo wallets get. */
const DEMO_SUPPLY = '1000000000';

/** The demo collectible and its tokens: data: JSON metadata on chain, and one token whose URI points off chain. */
export const DEMO_COLLECTIBLE = {
  name: 'Demo Collectible',
  symbol: 'DEMO',
  tokens: [
    {
      tokenId: 1n,
      owner: 1,
      metadata: {
        name: 'Demo #1',
        description: 'First demo collectible of the local chain',
        image: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/1.png',
        attributes: [
          { trait_type: 'Color', value: 'Blue' },
          { trait_type: 'Level', value: 3 },
        ],
      },
    },
    {
      tokenId: 2n,
      owner: 2,
      metadata: {
        name: 'Demo #2',
        description: 'Second demo collectible of the local chain',
        image: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/2.png',
        attributes: [
          { trait_type: 'Color', value: 'Green' },
          { trait_type: 'Level', value: 7 },
        ],
      },
    },
    { tokenId: 3n, owner: 1, uri: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/3.json' },
  ],
} as const;

/**
 * The demo assets are deployed by an account of their own (not dev account 0), so their addresses depend on nothing
 * another seed step does: the replay's recorded explorer replies can name them.
 */

/** Deployment names in the map seedLocalChain returns. */
export const demoTokenDeployment = (symbol: string): string => `DemoToken:${symbol}`;
export const DEMO_COLLECTIBLE_DEPLOYMENT = 'DemoCollectible';

/**
 * Where the demo assets land: the deployer's nonces 0.. in the order of DEMO_TOKENS, then the collectible.
 * @example demoAssetAddresses().tokens.USDC // '0x…'
 */
export function demoAssetAddresses(): { deployer: Address; tokens: Record<string, Address>; collectible: Address } {
  const from = deployerAddress('demoAssets');
  const tokens = Object.fromEntries(
    DEMO_TOKENS.map((t, nonce) => [t.symbol, getContractAddress({ from, nonce: BigInt(nonce) })]),
  );
  return { deployer: from, tokens, collectible: getContractAddress({ from, nonce: BigInt(DEMO_TOKENS.length) }) };
}

/**
 * The token list of the local chain from the deployments the seed recorded; empty when the tokens were not deployed.
 * @example localTokenList(deployments).map((t) => t.symbol) // ['USDC', 'DAI', 'WETH', 'LINK']
 */
export function localTokenList(deployments: ReadonlyMap<string, Address>): TokenListEntry[] {
  return DEMO_TOKENS.flatMap((t) => {
    const address = deployments.get(demoTokenDeployment(t.symbol));
    return address ? [{ address, symbol: t.symbol, name: t.name, decimals: t.decimals }] : [];
  });
}

const dataJsonUri = (metadata: object): string =>
  `data:application/json;base64,${Buffer.from(JSON.stringify(metadata)).toString('base64')}`;

/**
 * Deploys the demo ERC-20s (USDC 6 decimals, DAI, WETH, LINK 18) and the demo collectible, gives the demo wallets
 * (dev accounts 1–4) their token balances and mints collectibles #1–#3. Run before fee-market activity.
 * @example await seedLocalChain({ rpcUrl, steps: [deployMulticall3Step(), demoAssetsStep(), feeMarketActivityStep()] })
 */
export function demoAssetsStep(): SeedStep {
  return {
    name: 'demo-assets',
    async run(context: SeedContext) {
      const { publicClient, testClient, walletClient, accounts, deployments } = context;
      await testClient.setBalance({ address: deployerAddress('demoAssets'), value: parseEther('100') });
      const account = deployerAccount('demoAssets');
      const expected = demoAssetAddresses();
      const tokenArtifact = loadContractArtifact('DemoToken');
      const collectibleArtifact = loadContractArtifact('DemoCollectible');
      const nonce = await publicClient.getTransactionCount({ address: deployerAddress('demoAssets') });
      if (nonce !== 0) throw new Error(`demo deployer already used (nonce ${nonce})`);

      // Sent with explicit nonces and awaited together: one block per batch instead of one per transaction.
      const sent: `0x${string}`[] = [];
      let next = 0;
      for (const t of DEMO_TOKENS) {
        sent.push(
          await walletClient.deployContract({
            account,
            abi: tokenArtifact.abi,
            bytecode: tokenArtifact.bytecode,
            args: [t.name, t.symbol, t.decimals, parseUnits(DEMO_SUPPLY, t.decimals)],
            nonce: next++,
          }),
        );
      }
      sent.push(
        await walletClient.deployContract({
          account,
          abi: collectibleArtifact.abi,
          bytecode: collectibleArtifact.bytecode,
          args: [DEMO_COLLECTIBLE.name, DEMO_COLLECTIBLE.symbol],
          nonce: next++,
        }),
      );
      for (const hash of sent) {
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (receipt.status !== 'success') throw new Error(`deployment ${hash} reverted`);
      }
      for (const t of DEMO_TOKENS) deployments.set(demoTokenDeployment(t.symbol), expected.tokens[t.symbol]!);
      deployments.set(DEMO_COLLECTIBLE_DEPLOYMENT, expected.collectible);

      const writes: `0x${string}`[] = [];
      for (const t of DEMO_TOKENS) {
        for (const [i, amount] of t.holdings.entries()) {
          if (amount === '0') continue;
          writes.push(
            await walletClient.writeContract({
              account,
              address: expected.tokens[t.symbol]!,
              abi: tokenArtifact.abi,
              functionName: 'transfer',
              args: [accounts[i + 1]!.address, parseUnits(amount, t.decimals)],
              nonce: next++,
            }),
          );
        }
      }
      for (const nft of DEMO_COLLECTIBLE.tokens) {
        writes.push(
          await walletClient.writeContract({
            account,
            address: expected.collectible,
            abi: collectibleArtifact.abi,
            functionName: 'mint',
            args: [accounts[nft.owner]!.address, nft.tokenId, 'uri' in nft ? nft.uri : dataJsonUri(nft.metadata)],
            nonce: next++,
          }),
        );
      }
      for (const hash of writes) {
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (receipt.status !== 'success') throw new Error(`demo asset transaction ${hash} reverted`);
      }
    },
  };
}
