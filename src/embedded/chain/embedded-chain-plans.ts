import type { SeedStep } from './seed-local-chain.js';
import { baseNamesStep } from './seed-steps/base-names.js';
import { baseUsdcStep } from './seed-steps/base-usdc.js';
import { demoAssetsStep } from './seed-steps/demo-assets.js';
import { ensStep } from './seed-steps/ens.js';
import { feeMarketActivityStep } from './seed-steps/fee-market-activity.js';
import { deployMulticall3Step } from './seed-steps/multicall3.js';

export type EmbeddedChainName = 'ethereum' | 'base';

/** Base mainnet's chain id: the embedded Base chain reports it, so payments signed for Base settle there unchanged. */
export const BASE_CHAIN_ID = 8453;

/** What one embedded chain holds after start, and which part of it a snapshot can carry. */
export interface EmbeddedChainPlan {
  name: EmbeddedChainName;
  chainId: number;
  /** Seeded once by the build into generated/chain-state (chain-snapshot.ts); a start loads their result. */
  snapshotSteps(): SeedStep[];
  /**
   * Run on every start, after the snapshot is loaded: anvil does not keep its fee history in a dumped state, so the
   * tipped blocks `eth_feeHistory` reads are mined live.
   */
  liveSteps(): SeedStep[];
}

/** The embedded Ethereum (chain id 1: ENS, demo tokens and NFTs) and Base (8453: test USDC, Base names). */
export const EMBEDDED_CHAIN_PLANS: Readonly<Record<EmbeddedChainName, EmbeddedChainPlan>> = {
  ethereum: {
    name: 'ethereum',
    chainId: 1,
    snapshotSteps: () => [deployMulticall3Step(), demoAssetsStep(), ensStep()],
    liveSteps: () => [feeMarketActivityStep()],
  },
  base: {
    name: 'base',
    chainId: BASE_CHAIN_ID,
    snapshotSteps: () => [deployMulticall3Step(), baseUsdcStep(), baseNamesStep()],
    liveSteps: () => [],
  },
};
