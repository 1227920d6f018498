import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { EMBEDDED_CHAIN_PLANS } from './chain/embedded-chain-plans.js';
import { type SeededChain, startSeededChain } from './chain/start-seeded-chain.js';

/** The running embedded chain and the contract addresses its seed steps recorded (e.g. 'DemoToken:USDC'). */
export type EmbeddedChain = SeededChain;

/**
 * The embedded Ethereum (anvil on an ephemeral loopback port, from the seeded snapshot) when no ETH_RPC_URL is
 * configured; undefined when a live RPC serves instead.
 */
export async function startEmbeddedChainIfNeeded(
  config: AppConfig,
  logger: Logger,
): Promise<EmbeddedChain | undefined> {
  if (config.chains.ethereum.rpcUrl) return undefined;
  return startSeededChain(EMBEDDED_CHAIN_PLANS.ethereum, { logger });
}
