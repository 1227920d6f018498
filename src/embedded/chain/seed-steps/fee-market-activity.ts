import { type Address, type Hex, parseGwei, toHex } from 'viem';
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
    async run({ batch }) {
      // anvil holds its development accounts' keys and signs eth_sendTransaction itself: this step runs on every
      // start (fee history is not in a snapshot), and signing 48 transactions in JavaScript took ~0.3 s of it. Its
      // calls go as one JSON-RPC batch per block (27 requests instead of 79 one by one through viem's clients).
      const [devAccounts] = (await batch([{ method: 'eth_accounts' }])) as [Address[]];
      const senders = Array.from(
        { length: transactionsPerBlock },
        (_, i) => devAccounts[(FIRST_SENDER_INDEX + i) % devAccounts.length]!,
      );
      const nonces = (
        await batch(senders.map((address) => ({ method: 'eth_getTransactionCount', params: [address, 'pending'] })))
      ).map((count) => BigInt(count as Hex));
      // Hold transactions in the pool so each mined block gets several, with different tips.
      await batch([{ method: 'evm_setAutomine', params: [false] }]);
      try {
        for (let block = 0; block < blocks; block++) {
          await batch(
            senders.map((sender, i) => {
              const tipGwei = 1 + ((block + i) % TIP_LEVELS) * TIP_STEP_GWEI;
              const transaction = {
                from: sender,
                to: senders[(i + 1) % senders.length],
                value: toHex(1n),
                gas: toHex(21_000n),
                nonce: toHex(nonces[i]!++),
                maxPriorityFeePerGas: toHex(parseGwei(String(tipGwei))),
                maxFeePerGas: toHex(parseGwei('50')),
              };
              return { method: 'eth_sendTransaction', params: [transaction] };
            }),
          );
          await batch([{ method: 'anvil_mine', params: [toHex(1), toHex(0)] }]);
        }
      } finally {
        await batch([{ method: 'evm_setAutomine', params: [true] }]);
      }
    },
  };
}
