import { type Address, type Chain, defineChain } from 'viem';
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

/** Contracts the local chain seed deployed that viem's actions look up in the chain definition. */
export type LocalChainContracts = {
  /** The seeded ENS Universal Resolver (contracts/UniversalResolver.sol), which viem's ENS actions call. */
  ensUniversalResolver?: Address | undefined;
};

/**
 * The embedded local chain as viem sees it: Ethereum's definition with its own chain ID and RPC URL, and without the
 * `blockCreated` heights (a fresh local chain is at block ~20, so viem would refuse contracts "not yet deployed").
 * @example const chain = localViemChain({ chainId: 1, rpcUrl: 'http://127.0.0.1:41235', contracts: { ensUniversalResolver } })
 */
export function localViemChain({
  chainId = 1,
  rpcUrl,
  contracts = {},
}: {
  chainId?: number;
  rpcUrl?: string;
  contracts?: LocalChainContracts;
} = {}): Chain {
  return defineChain({
    ...mainnet,
    id: chainId,
    name: 'Local Ethereum',
    rpcUrls: { default: { http: rpcUrl ? [rpcUrl] : [] } },
    contracts: {
      ensUniversalResolver: {
        address: contracts.ensUniversalResolver ?? mainnet.contracts.ensUniversalResolver.address,
      },
      multicall3: { address: MULTICALL3_ADDRESS },
    },
  });
}
