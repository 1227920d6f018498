import type { Address } from 'viem';
import { followWallClock } from './chain-clock.js';
import { readChainSnapshot } from './chain-snapshot.js';
import type { EmbeddedChainPlan } from './embedded-chain-plans.js';
import { type LocalChain, type LocalChainLogger, startLocalChain } from './local-chain.js';
import { seedLocalChain } from './seed-local-chain.js';

/** A running embedded chain and the contract addresses its seed steps recorded (e.g. 'DemoToken:USDC'). */
export type SeededChain = LocalChain & { deployments: ReadonlyMap<string, Address> };

/**
 * Starts the plan's chain from the snapshot the build wrote (generated/chain-state), or seeds it when that is missing
 * or was made from other seed code, then runs the plan's live steps; its latest block is then stamped with wall time.
 * @example const chain = await startSeededChain(EMBEDDED_CHAIN_PLANS.ethereum, { logger })
 */
export async function startSeededChain(
  plan: EmbeddedChainPlan,
  p: { logger?: LocalChainLogger } = {},
): Promise<SeededChain> {
  const snapshot = readChainSnapshot(plan);
  if (!snapshot) {
    p.logger?.warn(
      { chain: plan.name },
      'no snapshot of the embedded chain for this code: seeding it now (`npm run build` writes one)',
    );
  }
  const chain = await startLocalChain({
    chainId: plan.chainId,
    ...(p.logger ? { logger: p.logger } : {}),
    ...(snapshot ? { loadStatePath: snapshot.statePath } : {}),
  });
  try {
    const onStepDone = (step: string, ms: number) =>
      p.logger?.debug({ chain: plan.name, step, ms: Math.round(ms) }, 'embedded chain seeded');
    const seeded =
      snapshot?.deployments ??
      (await seedLocalChain({ rpcUrl: chain.rpcUrl, chainId: plan.chainId, steps: plan.snapshotSteps(), onStepDone }));
    const deployments = await seedLocalChain({
      rpcUrl: chain.rpcUrl,
      chainId: plan.chainId,
      steps: plan.liveSteps(),
      deployments: seeded,
      onStepDone,
    });
    // A snapshot's latest block carries the time it was made: the chain starts at wall time instead.
    await followWallClock(chain.rpcUrl);
    return Object.assign(chain, { deployments });
  } catch (err) {
    await chain.stop();
    throw err;
  }
}
