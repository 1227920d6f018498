import { parseGwei } from 'viem';
import type { SeedStep } from '../seed-local-chain.js';

export type FeeMarketActivityParameters = {
  /** Blocks to fill; keep it at most 20 so `eth_feeHistory` over 20 blocks sees only tipped blocks. */
  blocks?: number;
  transactionsPerBlock?: number;
};

// Senders 5..8 (not the deployer, account 0), so contract addresses from other steps do not depend on this step.
const FIRST_SENDER_INDEX = 5;
const TIP_STEP_GWEI = 0.5;
const TIP_LEVELS = 5; // tips of 1, 1.5, 2, 2.5 and 3 gwei

/**
 * Mines a run of blocks holding several transfers each, with tips between 1 and 3 gwei, so `eth_feeHistory`
 * reports varied non-zero rewards. Run it as the LAST step so these blocks are the most recent ones.
 * @example await seedLocalChain({ rpcUrl, steps: [deployMulticall3Step(), feeMarketActivityStep({ blocks: 12 })] })
 */
export function feeMarketActivityStep({
  blocks = 12,
  transactionsPerBlock = 4,
}: FeeMarketActivityParameters = {}): SeedStep {
  return {
    name: 'fee-market-activity',
    async run({ publicClient, nodeSigner, testClient }) {
      // anvil holds its development accounts' keys and signs eth_sendTransaction itself: this step runs on every
      // start (fee history is not in a snapshot), and signing 48 transactions in JavaScript took ~0.3 s of it.
      const devAccounts = await nodeSigner.getAddresses();
      const senders = Array.from(
        { length: transactionsPerBlock },
        (_, i) => devAccounts[(FIRST_SENDER_INDEX + i) % devAccounts.length]!,
      );
      const nonces = await Promise.all(
        senders.map((address) => publicClient.getTransactionCount({ address, blockTag: 'pending' })),
      );
      // Hold transactions in the pool so each mined block gets several, with different tips.
      await testClient.setAutomine(false);
      try {
        for (let block = 0; block < blocks; block++) {
          await Promise.all(
            senders.map((sender, i) => {
              const tipGwei = 1 + ((block + i) % TIP_LEVELS) * TIP_STEP_GWEI;
              return nodeSigner.sendTransaction({
                account: sender,
                to: senders[(i + 1) % senders.length],
                value: 1n,
                gas: 21_000n,
                nonce: nonces[i]++,
                maxPriorityFeePerGas: parseGwei(String(tipGwei)),
                maxFeePerGas: parseGwei('50'),
              });
            }),
          );
          await testClient.mine({ blocks: 1 });
        }
      } finally {
        await testClient.setAutomine(true);
      }
    },
  };
}
