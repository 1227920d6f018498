import { size } from 'viem';
import { MULTICALL3_ADDRESS } from '../../sources/rpc/viem-chains.js';
import { MULTICALL3_CREATION_CODE } from '../contracts/multicall3-creation-code.js';
import type { SeedStep } from '../seed-local-chain.js';

/**
 * Puts Multicall3 at its canonical address (anvil does not ship it), so viem batches reads into one `eth_call`
 * exactly as on mainnet. The constructor is run in an `eth_call` to get the runtime code, which `anvil_setCode`
 * then places; no transaction or block is needed.
 * @example await seedLocalChain({ rpcUrl, steps: [deployMulticall3Step()] })
 */
export function deployMulticall3Step(): SeedStep {
  return {
    name: 'multicall3',
    async run({ publicClient, testClient, deployments }) {
      const { data: runtimeCode } = await publicClient.call({ data: MULTICALL3_CREATION_CODE });
      if (!runtimeCode || size(runtimeCode) === 0) throw new Error('Multicall3 constructor returned no code');
      await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: runtimeCode });
      deployments.set('Multicall3', MULTICALL3_ADDRESS);
    },
  };
}
