import { publicDevKeys } from '../config/public-dev-keys.js';
import type { Store, SubnameRecord } from '../store/store.js';

/** Dev account that owns the demo subname (no demo .eth name or primary name of its own). */
const DEMO_SUBNAME_OWNER = 7;

/**
 * The CCIP subname the embedded default serves from its first start, so the documented examples
 * (`GET /api/subnames/offchain.eth/dave`, the CCIP calldata asking addr(dave.offchain.eth)) answer without a
 * registration first.
 */
export function demoSubname(now: number): SubnameRecord {
  // Anvil's account #7 (the same as getDevAccounts()[7], without deriving the signing accounts at start).
  const owner = publicDevKeys()[DEMO_SUBNAME_OWNER]!.address;
  return {
    parent: 'offchain.eth',
    label: 'dave',
    owner: owner.toLowerCase(),
    records: {
      addresses: { '60': owner },
      texts: { url: 'https://dave.example.org', 'com.github': 'dave', description: 'Served by the CCIP-Read gateway' },
    },
    createdAt: now,
  };
}

/**
 * Registers the demo subname when its parent is served and the label is free (a store that already has it, from an
 * earlier start or another instance, keeps its own).
 * @example await registerDemoSubname(store, config.ccip.parentNames)
 */
export async function registerDemoSubname(
  store: Pick<Store, 'putSubname'>,
  parents: readonly string[],
  now: number = Date.now(),
): Promise<void> {
  const record = demoSubname(now);
  if (!parents.includes(record.parent)) return;
  await store.putSubname(record);
}
