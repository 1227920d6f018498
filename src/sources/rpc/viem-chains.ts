import { defineChain, type Chain } from 'viem';
import { arbitrum, base, mainnet, optimism, polygon } from 'viem/chains';
import type { ChainKey } from '../../config/chains.js';

/** viem's definitions of the supported chains: they carry each chain's Multicall3 and ENS contract addresses. */
export const VIEM_CHAINS: Record<ChainKey, Chain> = {
  ethereum: mainnet,
  base,
  arbitrum,
  optimism,
  polygon,
};

/** Where Multicall3 lives on every chain that has it, and where the local chain seed puts it. */
export const MULTICALL3_ADDRESS = mainnet.contracts.multicall3.address;

/**
 * The embedded local chain as viem sees it: Ethereum's definition with its own chain ID and RPC URL, and without the
 * `blockCreated` heights (a fresh local chain is at block ~20, so viem would refuse contracts "not yet deployed").
 * @example const chain = localViemChain({ chainId: 1, rpcUrl: 'http://127.0.0.1:41235' })
 */
export function localViemChain({ chainId = 1, rpcUrl }: { chainId?: number; rpcUrl?: string } = {}): Chain {
  return defineChain({
    ...mainnet,
    id: chainId,
    name: 'Local Ethereum',
    rpcUrls: { default: { http: rpcUrl ? [rpcUrl] : [] } },
    contracts: {
      ensUniversalResolver: { address: mainnet.contracts.ensUniversalResolver.address },
      multicall3: { address: MULTICALL3_ADDRESS },
    },
  });
}
