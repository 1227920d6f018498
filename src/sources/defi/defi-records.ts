/** A protocol of DefiLlama's list (`/protocols`), as the service keeps it. */
export interface ProtocolSummary {
  name: string;
  slug: string;
  category: string | null;
  chains: string[];
  /** USD locked now; null when DefiLlama reports none. */
  tvlUsd: number | null;
  /** Percent changes of TVL over 1 hour, 1 day and 7 days. */
  change1hPercent: number | null;
  change1dPercent: number | null;
  change7dPercent: number | null;
  mcapUsd: number | null;
  symbol: string | null;
  url: string | null;
  logo: string | null;
}

/** One protocol in detail (`/protocol/{slug}`): TVL per chain now and its daily history. */
export interface ProtocolDetail {
  name: string;
  description: string | null;
  url: string | null;
  twitter: string | null;
  category: string | null;
  chains: string[];
  /** USD locked per chain now, largest first; borrowed and staking sub-totals left out. */
  chainTvls: { chain: string; tvlUsd: number }[];
  /** Daily [unix seconds, USD] points, oldest first. */
  tvlHistory: { date: number; tvlUsd: number }[];
  mcapUsd: number | null;
}

/** A pool of DefiLlama's yields server (`/pools`). */
export interface YieldPool {
  pool: string;
  chain: string;
  project: string;
  symbol: string;
  tvlUsd: number;
  /** Percent a year: total, from fees/interest, from reward tokens. */
  apy: number | null;
  apyBase: number | null;
  apyReward: number | null;
  stablecoin: boolean;
  ilRisk: string | null;
  exposure: string | null;
  poolMeta: string | null;
  rewardTokens: string[];
  underlyingTokens: string[];
}

/** An exploit DefiLlama records (`/hacks`). */
export interface HackRecord {
  /** Unix seconds. */
  date: number;
  name: string;
  amountUsd: number | null;
  chains: string[];
  classification: string | null;
  technique: string | null;
  returnedUsd: number | null;
  bridgeHack: boolean;
  source: string | null;
}

/** A funding round DefiLlama records (`/raises`); upstream amounts are millions of USD, these are USD. */
export interface RaiseRecord {
  date: number;
  name: string;
  amountUsd: number | null;
  chains: string[];
  round: string | null;
  sector: string | null;
  leadInvestors: string[];
  otherInvestors: string[];
  valuationUsd: number | null;
  source: string | null;
}

/** The next scheduled unlock of a token (DefiLlama emissions). */
export interface TokenUnlock {
  name: string;
  /** CoinGecko id of the token, when DefiLlama names one. */
  geckoId: string | null;
  /** Unix seconds. */
  date: number;
  tokens: number;
  circulatingSupply: number | null;
  maxSupply: number | null;
  mcapUsd: number | null;
}

/** A token inside a DeFi position (DeBank). */
export interface PositionToken {
  symbol: string;
  /** Token contract, or the chain's native token id. */
  address: string;
  amount: number;
  priceUsd: number | null;
  valueUsd: number | null;
}

/** One position of a wallet in one protocol (DeBank `portfolio_item_list` entry). */
export interface DefiPosition {
  protocolId: string;
  protocol: string;
  /** DeBank chain id: eth, base, arb, op, matic … */
  chain: string;
  /** Kind of position as DeBank names it: Lending, Liquidity Pool, Staked, Locked … */
  kind: string;
  assetUsd: number;
  debtUsd: number;
  netUsd: number;
  supplied: PositionToken[];
  borrowed: PositionToken[];
  rewards: PositionToken[];
  healthRate: number | null;
  /** Unix seconds DeBank last computed it. */
  updatedAt: number | null;
}

/** Active addresses of one chain on its latest measured day (growthepie). */
export interface ChainActivity {
  /** growthepie's key of the chain: ethereum, base, arbitrum, optimism … */
  originKey: string;
  /** The day measured, YYYY-MM-DD. */
  date: string;
  dailyActiveAddresses: number;
  /** Distinct addresses over the 7 days ending on `date`; null when not reported. */
  weeklyActiveAddresses: number | null;
}
