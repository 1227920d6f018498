/** What each area (docs/api-contract.md#areas, the OpenAPI tags) holds, as the document's `tags` describe it. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Free: 'Always free: no quota is counted and no credentials are needed',
  Status: 'Service and data-source health',
  x402: 'Pay per request in USDC on Base with x402: the configuration and priced routes',
  Prices: 'Token prices: spot, batch, multi-source median, history, trending',
  Farcaster: 'Farcaster users, casts, followers, search and the trending feed',
  Auth: 'Sign-In with Ethereum sessions, API keys, credits and usage',
  DeFi: 'DeFi protocols, yields, positions, active users and events',
  Identity: 'Aggregated profiles across ENS, wallet and Farcaster',
  Wallet: 'Balances, transactions and NFTs of an address',
  Chain: 'Chain data: ERC-20 token info and active addresses per chain',
  NFT: 'ERC-721 token metadata read on chain',
  Utilities: 'Address tools: checksum, validation, type, code, age and contract ABIs',
  ENS: 'ENS resolution, profiles, avatars, primary names and domains',
  CCIP: 'The ERC-3668 (CCIP-Read) gateway that resolves ENS subnames from signed off-chain records',
  Subnames: 'Subnames under the parents the CCIP gateway serves: lookup and registration',
  Subscribe: 'Webhooks: signed deliveries of ENS, wallet, Farcaster and price events',
};
