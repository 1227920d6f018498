/** docs/api-contract.md#supported-chains: the five chains the service answers for, and what each offers. */
export const CHAINS = [
  { key: 'ethereum', id: 1, name: 'Ethereum', ens: true, prices: true, defi: true, gas: true },
  { key: 'base', id: 8453, name: 'Base', ens: true, prices: true, defi: true, gas: true },
  { key: 'arbitrum', id: 42161, name: 'Arbitrum', ens: false, prices: true, defi: true, gas: true },
  { key: 'optimism', id: 10, name: 'Optimism', ens: false, prices: true, defi: true, gas: true },
  { key: 'polygon', id: 137, name: 'Polygon', ens: false, prices: true, defi: true, gas: true },
] as const;

export type ChainKey = (typeof CHAINS)[number]['key'];
export type SupportedChain = (typeof CHAINS)[number];

/** Accepts a chain by name (any case) or by numeric ID; undefined for anything else. */
export function findChain(nameOrId: string | number): SupportedChain | undefined {
  const wanted = String(nameOrId).trim().toLowerCase();
  return CHAINS.find((c) => c.key === wanted || String(c.id) === wanted);
}
