import { loadContractArtifact } from '../../../sources/rpc/contract-artifacts.js';
import { MULTICALL3_ADDRESS } from '../../../sources/rpc/viem-chains.js';
import type { SeedStep } from '../seed-local-chain.js';

/**
 * Puts our Multicall3 (contracts/Multicall3.sol) at the canonical address (anvil does not ship one), so viem batches
 * reads into one `eth_call` exactly as on mainnet. Its runtime code is placed with `anvil_setCode`; it has no
 * constructor work or immutables, so no transaction or block is needed.
 * @example await seedLocalChain({ rpcUrl, steps: [deployMulticall3Step()] })
 */
export function deployMulticall3Step(): SeedStep {
  return {
    name: 'multicall3',
    async run({ testClient, deployments }) {
      const { deployedBytecode } = loadContractArtifact('Multicall3');
      await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: deployedBytecode });
      deployments.set('Multicall3', MULTICALL3_ADDRESS);
    },
  };
}
