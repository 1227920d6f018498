import { ApiError } from '../../src/errors/api-error.js';
import type { AskedAt } from '../../src/sources/rpc/asked-at.js';
import type { Sources } from '../../src/sources/sources.js';
import type { X402Config } from '../account/types.js';
import type { AccountServices, CallerIdentity, PresentedPaymentShape } from './account-services.js';
import type { CcipServices } from './ccip-services.js';
import { RequestLoaders } from './define-loader.js';
import type { LiveServices, LiveVia } from './live-services.js';
import type { WebhookServices } from './webhook-services.js';

/** Facts about the running service that resolvers report; implemented by the server at start. */
export interface AppServices {
  status(): Promise<{
    status: string;
    version: string;
    uptimeSeconds: number;
    store: string;
    storeDurability: string;
    timestamp: string;
  }>;
  x402Config(publicBaseUrl: string): X402Config;
  /** Each part of the deployment, demo or live, as the configuration decided it (src/config/part-modes.ts). */
  parts(): { part: string; mode: string; detail: string }[];
  /** Sign-in, sessions, API keys, credits and usage (subgraphs/shared/account-services.ts). */
  account: AccountServices;
  /** CCIP-Read gateway answers, its health, and the subnames it serves (subgraphs/shared/ccip-services.ts). */
  ccip: CcipServices;
  /** Webhook subscriptions, deliveries, pings (subgraphs/shared/webhook-services.ts). */
  webhooks: WebhookServices;
  /** The subscription fields' event streams (subgraphs/shared/live-services.ts). */
  live: LiveServices;
}

/** What every resolver receives: the request's id, the shared sources, and this request's loaders. */
export interface GraphContext {
  requestId: string;
  sources: Sources;
  app: AppServices;
  /** Absolute base URL the caller reached us at (configured, or from the request's Host). */
  publicBaseUrl: string;
  /** This request's loader scope: `someLoader.of(ctx)` is the request's DataLoader (subgraphs/shared/define-loader.ts). */
  loaders: RequestLoaders;
  /**
   * When the request arrived (src/sources/rpc/asked-at.ts), for the chain reads made for it: exact for the head as of
   * then (src/sources/rpc/block-reads.ts). Undefined for a stream's events and a subgraph served alone: each chain
   * read then learns the head anew.
   */
  askedAt: AskedAt | undefined;
  /** Who is calling: identified by the access gate (once per request), or on first ask on always-free routes. */
  caller: () => Promise<CallerIdentity>;
  /** The x402 payment header the request carries, if any (a credit purchase is paid with it). */
  payment?: PresentedPaymentShape | undefined;
  /** Absolute URL of the request (x402 `resource` of offers made by resolvers). */
  requestUrl: string;
  /** A subscription's transport and resume point, set by the streaming transports (src/http/graphql-streams.ts). */
  live?: LiveVia;
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
  askedAt?: AskedAt | undefined;
}): GraphContext {
  // Spelled out, not spread: one object shape for every request's context (a spread of the params costs ~3 µs).
  return {
    requestId: params.requestId,
    sources: params.sources,
    app: params.app,
    publicBaseUrl: params.publicBaseUrl,
    loaders: new RequestLoaders(),
    askedAt: params.askedAt,
    caller: params.caller ?? unknownCaller,
    payment: params.payment,
    requestUrl: params.requestUrl ?? params.publicBaseUrl,
  };
}

const unknownCaller = async (): Promise<CallerIdentity> => {
  throw new ApiError('UNAUTHORIZED', 'this server does not identify callers');
};
