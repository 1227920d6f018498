import type { RouteRow, RouteTable } from '../../rest-compat/route-row.js';
import type { AccountServices } from '../../subgraphs/shared/account-services.js';
import type { CcipServices } from '../../subgraphs/shared/ccip-services.js';
import type { AppServices } from '../../subgraphs/shared/graph-context.js';
import type { LiveServices } from '../../subgraphs/shared/live-services.js';
import type { WebhookServices } from '../../subgraphs/shared/webhook-services.js';
import type { BazaarExtension } from '../access/bazaar-discovery.js';
import { type PricedTool, x402Configuration } from '../access/payment-catalog.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';

/** The API version machine-readable description declares (docs/api-contract.md#versioning). */
export const API_VERSION = '3.0.0';

/** Bazaar discovery of each priced route and the MCP tools sold per call, for /.well-known/x402. */
export interface AppOffers {
  discovery: ReadonlyMap<RouteRow, BazaarExtension>;
  tools: readonly PricedTool[];
}

/** What the status and discovery fields report about this running instance. */
export function createAppServices(p: {
  config: AppConfig;
  table: RouteTable;
  store: Pick<Store, 'ping' | 'describe'>;
  startedAt: number;
  /** Sign-in, keys, credits and usage (src/access/create-access.ts). */
  account: AccountServices;
  /** CCIP gateway and subnames (src/ccip/ccip-services.ts). */
  ccip: CcipServices;
  /** Webhook subscriptions and deliveries (src/webhooks/webhook-services.ts). */
  webhooks: WebhookServices;
  /** The subscription fields' event streams (src/webhooks/live-hub.ts). */
  live: LiveServices;
  /** The x402 facilitator in use (the embedded local one, or X402_FACILITATOR_URL); default the configured URL. */
  facilitatorUrl?: string;
  /**
   * Bazaar discovery of each priced route and the MCP tools sold per call, for /.well-known/x402: asked per request,
   * as the server builds them from the schema while its store and chains start.
   */
  offers?: () => AppOffers | undefined;
}): AppServices {
  return {
    account: p.account,
    ccip: p.ccip,
    webhooks: p.webhooks,
    live: p.live,
    async status() {
      const { kind: store, durability } = p.store.describe();
      // Readiness: without its store the service can neither count, sign in nor charge a call.
      await p.store.ping().catch(() => {
        throw new ApiError('SERVICE_UNAVAILABLE', `the ${store} store does not answer`, { store });
      });
      return {
        status: 'ok',
        version: API_VERSION,
        uptimeSeconds: Math.floor((Date.now() - p.startedAt) / 1000),
        store,
        storeDurability: durability,
        timestamp: new Date().toISOString(),
      };
    },
    parts: () => p.config.parts.map((part) => ({ ...part })),
    x402Config: (baseUrl) => {
      const offers = p.offers?.();
      return x402Configuration({
        config: p.config,
        table: p.table,
        baseUrl,
        facilitatorUrl: p.facilitatorUrl ?? p.config.x402.facilitatorUrl ?? '',
        discovery: offers?.discovery ?? new Map(),
        tools: offers?.tools ?? [],
      });
    },
  };
}
