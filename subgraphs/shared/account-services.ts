/**
 * What the account subgraph asks of the server (SPEC "Authentication", "API key", "Usage"): implemented by the
 * access layer (src/access/account-services.ts), reached through `GraphContext.app.account`.
 */

/** Who is calling (SPEC "four access modes", x402 aside), as the access layer identified them. */
export interface CallerIdentity {
  mode: 'anonymous' | 'siwe' | 'api_key';
  /** Key the caller's counters are kept under: `ip:…`, `wallet:…` or `key:…`. */
  key: string;
  /** The wallet: the signed-in one, or the one owning the API key. */
  wallet?: `0x${string}`;
  /** For SIWE callers: the session (one sign-in and its refreshes), the token presented, and its expiry (ms). */
  session?: { id: string; tokenId: string; expiresAt: number };
  /** The API key's id, for API key callers. */
  apiKeyId?: string;
  /** The mode's daily and per-minute limits. */
  limits: { daily: number; perMinute: number };
}

export interface SiweChallengeShape {
  nonce: string;
  issuedAt: string;
  expiresAt: string;
  domain: string;
  uri: string;
  version: string;
  chainId: number;
}

export interface SessionShape {
  success: boolean;
  token: string;
  address: string;
  expiresAt: string;
}

export interface RefreshedSessionShape {
  success: boolean;
  token: string;
  expiresAt: string;
}

export interface ResultMessageShape {
  success: boolean;
  message: string;
}

export interface SessionStatusShape {
  authenticated: boolean;
  address: string | null;
  expiresAt: string | null;
  expiresIn: number | null;
  tier: string;
  limits: { daily: number; perMinute: number };
}

export interface WalletProfileShape {
  address: string;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  sessionExpiresAt: string;
  apiKeyCount: number;
  tier: string;
  limits: { daily: number; perMinute: number };
}

export interface KeyUsageShape {
  id: string;
  name: string;
  prefix: string;
  usageToday: number;
  creditsUsedToday: number;
  credits: number;
}

export interface WalletUsageShape {
  address: string;
  tier: string;
  used: number;
  limit: number;
  remaining: number;
  perMinuteLimit: number;
  resetsAt: string;
  apiKeys: KeyUsageShape[];
}

export interface UsageShape {
  used: number;
  limit: number;
  remaining: number;
  credits: { balance: number; usedToday: number } | null;
  tier: string;
  resetsAt: string;
}

export interface CreatedApiKeyShape {
  id: string;
  name: string;
  key: string;
  createdAt: string;
  credits: number;
  dailyLimit: number;
  minuteLimit: number;
}

export interface ListedApiKeyShape {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  credits: number;
  usageToday: number;
  dailyLimit: number;
  minuteLimit: number;
}

export interface RotatedApiKeyShape {
  id: string;
  key: string;
  note: string;
}

export interface CreditPackageShape {
  id: string;
  credits: number;
  price: string;
  perCall: string;
}

export interface AccountServices {
  /** A fresh single-use nonce, valid 5 minutes, bound to the configured domain, URI and chain callers must sign for. */
  siweChallenge(): Promise<SiweChallengeShape>;
  /** Checks an EIP-4361 message and its signature; opens a 24-hour session. */
  siweVerify(p: { message: string; signature: string }): Promise<SessionShape>;
  refreshSession(caller: CallerIdentity): Promise<RefreshedSessionShape>;
  logout(caller: CallerIdentity): Promise<ResultMessageShape>;
  sessionStatus(caller: CallerIdentity): Promise<SessionStatusShape>;
  me(caller: CallerIdentity): Promise<WalletProfileShape>;
  myUsage(caller: CallerIdentity): Promise<WalletUsageShape>;
  /** The caller's quota today; reads counters, consumes nothing. */
  usage(caller: CallerIdentity): Promise<UsageShape>;
  createApiKey(caller: CallerIdentity, name: string): Promise<{ success: boolean; key: CreatedApiKeyShape }>;
  listApiKeys(caller: CallerIdentity): Promise<{ keys: ListedApiKeyShape[] }>;
  rotateApiKey(caller: CallerIdentity, id: string): Promise<{ success: boolean; key: RotatedApiKeyShape }>;
  deleteApiKey(caller: CallerIdentity, id: string): Promise<ResultMessageShape>;
  creditPackages(): { packages: CreditPackageShape[] };
  /**
   * Credits a key against a verified, settled x402 payment of the package's price, once per payment; without one, the
   * 402 offer and no credit. `resource` is the absolute URL asked for (the offer names it).
   */
  purchaseCredits(
    caller: CallerIdentity,
    p: { id: string; packageId: string; payment?: PresentedPaymentShape | undefined; resource: string },
  ): Promise<PurchaseShape>;
}

/** An x402 payment header as sent: `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2) and its base64 value. */
export interface PresentedPaymentShape {
  header: 'X-PAYMENT' | 'PAYMENT-SIGNATURE';
  value: string;
}

export interface PurchaseShape {
  success: boolean;
  keyId: string;
  packageId: string;
  creditsAdded: number;
  balance: number;
  /** The settlement transaction of the payment (x402 facilitator's answer). */
  transaction: string;
}
