import { parseUnits } from 'viem';
import type { RouteRow, RouteTable } from '../../rest-compat/route-row.js';
import type { X402ConfigShape } from '../../subgraphs/shared/graph-context.js';
import type { AppConfig } from '../config/config.js';

/** USDC has 6 decimals: $0.005 → "5000". */
export function usdToUsdcUnits(usd: string): string {
  return parseUnits(usd, 6).toString();
}

/** A route's price: its row's, else the configured default; always-free routes have none. */
export function routePriceUsd(row: RouteRow, defaultPriceUsd: string): string | undefined {
  if (row.tier === 'free') return undefined;
  return row.price ?? defaultPriceUsd;
}

/** How long a signed payment authorization may take to arrive (x402 `maxTimeoutSeconds`). */
export const PAYMENT_TIMEOUT_SECONDS = 60;

/**
 * GET /.well-known/x402: the receiver, asset and facilitator from config, and one `exact` requirement per
 * priced route of the table (prices from the table: one source of truth).
 */
export function x402Configuration(p: { config: AppConfig; table: RouteTable; baseUrl: string }): X402ConfigShape {
  const { x402 } = p.config;
  const accepts = p.table.rows.flatMap((row) => {
    const price = routePriceUsd(row, x402.defaultPriceUsd);
    if (price === undefined) return [];
    return [
      {
        scheme: 'exact',
        network: x402.network,
        method: row.method,
        path: row.path,
        resource: `${p.baseUrl}${row.path}`,
        description: row.summary,
        mimeType: row.kind === 'document' ? row.contentType : 'application/json',
        priceUSD: price,
        maxAmountRequired: usdToUsdcUnits(price),
        payTo: x402.receiver,
        asset: x402.asset,
        maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
      },
    ];
  });
  return {
    x402Version: 1,
    network: x402.network,
    chainId: x402.chainId,
    asset: x402.asset,
    assetSymbol: 'USDC',
    receiver: x402.receiver,
    facilitator: x402.facilitatorUrl,
    accepts,
  };
}
