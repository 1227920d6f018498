import type { SeedStep } from '../seed-local-chain.js';
import { demoAssetsStep } from './demo-assets.js';
import { ensStep } from './ens.js';
import { feeMarketActivityStep } from './fee-market-activity.js';
import { deployMulticall3Step } from './multicall3.js';

/** What the embedded chain holds after start, in order; later work adds ENS, tokens and NFTs here. */
export function embeddedChainSeedSteps(): SeedStep[] {
  return [deployMulticall3Step(), demoAssetsStep(), ensStep(), feeMarketActivityStep()];
}
