import type DataLoader from 'dataloader';
import { ApiError } from '../../src/errors/api-error.js';
import type { Sources } from '../../src/sources/sources.js';
import type { AccountServices, CallerIdentity, PresentedPaymentShape } from './account-services.js';
import type { CcipServices } from './ccip-services.js';
import type { WebhookServices } from './webhook-services.js';

/** Facts about the running service that resolvers report; implemented by the server at start. */
export interface AppServices {
  status(): Promise<{ status: string; version: string; uptimeSeconds: number; store: string; timestamp: string }>;
  x402Config(publicBaseUrl: string): X402ConfigShape;
  /** Sign-in, sessions, API keys, credits and usage (subgraphs/shared/account-services.ts). */
  account: AccountServices;
  /** CCIP-Read gateway answers, its health, and the subnames it serves (subgraphs/shared/ccip-services.ts). */
  ccip: CcipServices;
  /** Webhook subscriptions, deliveries, pings (subgraphs/shared/webhook-services.ts). */
  webhooks: WebhookServices;
}

export interface X402ConfigShape {
  x402Version: number;
  network: string;
  chainId: number;
  asset: string;
  assetSymbol: string;
  receiver: string;
  facilitator: string;
  accepts: {
    scheme: string;
    network: string;
    method: string;
    path: string;
    resource: string;
    description: string;
    mimeType: string;
    priceUSD: string;
    maxAmountRequired: string;
    payTo: string;
    asset: string;
    maxTimeoutSeconds: number;
    /** The asset's EIP-712 domain name and version, which x402 clients sign EIP-3009 authorizations under. */
    extra: { name: string; version: string };
    serviceName: string;
    tags: string[];
    outputSchema: Record<string, unknown>;
    extensions: Record<string, unknown>;
  }[];
  tools: {
    toolName: string;
    resource: string;
    description: string;
    priceUSD: string;
    scheme: string;
    network: string;
    amount: string;
    payTo: string;
    asset: string;
    maxTimeoutSeconds: number;
    extra: { name: string; version: string };
    serviceName: string;
    tags: string[];
    extensions: Record<string, unknown>;
  }[];
}

/** What every resolver receives: the request's id, the shared sources, and this request's loaders. */
export interface GraphContext {
  requestId: string;
  sources: Sources;
  app: AppServices;
  /** Absolute base URL the caller reached us at (configured, or from the request's Host). */
  publicBaseUrl: string;
  /** One DataLoader per kind per request, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
  /** Who is calling: identified by the access gate (once per request), or on first ask on always-free routes. */
  caller: () => Promise<CallerIdentity>;
  /** The x402 payment header the request carries, if any (a credit purchase is paid with it). */
  payment?: PresentedPaymentShape | undefined;
  /** Absolute URL of the request (x402 `resource` of offers made by resolvers). */
  requestUrl: string;
}

/**
 * The request's loader for `key`, made on first use so that every resolver in one request shares it.
 * @example const l = requestLoader(ctx, 'ensAddress', (s) => ensAddressLoader(s))
 */
export function requestLoader<K, V>(
  ctx: GraphContext,
  key: string,
  make: (sources: Sources) => DataLoader<K, V>,
): DataLoader<K, V> {
  let found = ctx.loaders.get(key) as DataLoader<K, V> | undefined;
  if (!found) {
    found = make(ctx.sources);
    ctx.loaders.set(key, found as DataLoader<unknown, unknown>);
  }
  return found;
}

export function newGraphContext(params: {
  requestId: string;
  sources: Sources;
  app: AppServices;
  publicBaseUrl: string;
  /** Identifies the request's caller; without it (a subgraph served alone) the caller is unknown: 401. */
  caller?: () => Promise<CallerIdentity>;
  payment?: PresentedPaymentShape | undefined;
  requestUrl?: string;
}): GraphContext {
  return {
    ...params,
    caller: params.caller ?? unknownCaller,
    requestUrl: params.requestUrl ?? params.publicBaseUrl,
    loaders: new Map(),
  };
}

const unknownCaller = async (): Promise<CallerIdentity> => {
  throw new ApiError('UNAUTHORIZED', 'this server does not identify callers');
};
