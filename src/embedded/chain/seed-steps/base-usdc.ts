import { parseUnits } from 'viem';
import { USDC_ON_BASE } from '../../../config/config.js';
import { loadContractArtifact } from '../../../sources/rpc/contract-artifacts.js';
import type { SeedStep } from '../seed-local-chain.js';

/** Test USDC each development account holds on the embedded Base chain: enough for a great many paid calls. */
export const DEV_ACCOUNT_TEST_USDC = parseUnits('1000000', 6);

/**
 * Puts our EIP-3009 USDC stand-in (contracts/Eip3009Usdc.sol) at USDC's canonical Base address with `anvil_setCode`,
 * makes development account 0 its minter, and gives each of anvil's ten development accounts {@link DEV_ACCOUNT_TEST_USDC},
 * so that any of them can sign x402 payments that settle on the embedded Base chain.
 * @example await seedLocalChain({ rpcUrl, chainId: 8453, steps: [baseUsdcStep()] })
 */
export function baseUsdcStep(): SeedStep {
  return {
    name: 'base-usdc',
    async run({ testClient, walletClient, publicClient, accounts, deployments }) {
      const { abi, deployedBytecode } = loadContractArtifact('Eip3009Usdc');
      await testClient.setCode({ address: USDC_ON_BASE, bytecode: deployedBytecode });
      await walletClient.writeContract({
        address: USDC_ON_BASE,
        abi,
        functionName: 'initialize',
        args: [accounts[0]!.address],
      });
      let last: `0x${string}` | undefined;
      for (const account of accounts) {
        last = await walletClient.writeContract({
          address: USDC_ON_BASE,
          abi,
          functionName: 'mint',
          args: [account.address, DEV_ACCOUNT_TEST_USDC],
        });
      }
      if (last) await publicClient.waitForTransactionReceipt({ hash: last, pollingInterval: 20 });
      deployments.set('USDC', USDC_ON_BASE);
    },
  };
}
