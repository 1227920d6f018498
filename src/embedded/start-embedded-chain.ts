import type { Logger } from 'pino';
import type { Address } from 'viem';
import type { AppConfig } from '../config/config.js';
import { type LocalChain, startLocalChain } from './chain/local-chain.js';
import { seedLocalChain } from './chain/seed-local-chain.js';
import { embeddedChainSeedSteps } from './chain/seed-steps/index.js';

/** The running embedded chain and the contract addresses its seed steps recorded (e.g. 'DemoToken:USDC'). */
export type EmbeddedChain = LocalChain & { deployments: ReadonlyMap<string, Address> };

/**
 * The embedded Ethereum (anvil on an ephemeral loopback port, seeded) when no ETH_RPC_URL is configured;
 * undefined when a live RPC serves instead.
 */
export async function startEmbeddedChainIfNeeded(
  config: AppConfig,
  logger: Logger,
): Promise<EmbeddedChain | undefined> {
  if (config.chains.ethereum.rpcUrl) return undefined;
  const chain = await startLocalChain({ chainId: 1, logger });
  let deployments: ReadonlyMap<string, Address>;
  try {
    deployments = await seedLocalChain({
      rpcUrl: chain.rpcUrl,
      steps: embeddedChainSeedSteps(),
      onStepDone: (name, ms) => logger.debug({ step: name, ms: Math.round(ms) }, 'local chain seeded'),
    });
  } catch (err) {
    await chain.stop();
    throw err;
  }
  return Object.assign(chain, { deployments });
}
