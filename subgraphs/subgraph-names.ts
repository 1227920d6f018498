/**
 * The subgraphs' names in composition order: what `npm run subgraph` and `npm run supergraph` take. Light to import
 * (their --help answers before any subgraph loads); subgraphs/index.ts holds the modules, in the same order.
 */
export const SUBGRAPH_NAMES = [
  'chain',
  'account',
  'prices',
  'farcaster',
  'defi',
  'wallet',
  'ens',
  'ccip',
  'webhooks',
] as const;
