import { parseUnits } from 'viem';
import type { RouteRow, RouteTable, Tier } from '../../rest-compat/route-row.js';
import type { X402Config } from '../../subgraphs/account/types.js';
import type { AppConfig } from '../config/config.js';
import { type BazaarExtension, bazaarTags, SERVICE_NAME, v1OutputSchema } from './bazaar-discovery.js';

/** USDC has 6 decimals: $0.005 → "5000". */
export function usdToUsdcUnits(usd: string): string {
  return parseUnits(usd, 6).toString();
}

/**
 * A route's price per call, or undefined when it is not for sale: always-free routes cost nothing, and sign-in and
 * key management (Auth tier) are not sold per call (a credit purchase names its package's price itself).
 */
export function routePriceUsd(
  row: { tier: Tier; price?: string | undefined },
  defaultPriceUsd: string,
): string | undefined {
  if (row.tier === 'free' || row.tier === 'auth') return undefined;
  return row.price ?? defaultPriceUsd;
}

/** An MCP tool sold per call, as /.well-known/x402 lists it. */
export interface PricedTool {
  name: string;
  summary: string;
  priceUsd: string;
  /** x402 resource URL, mcp://tool/<name>. */
  resourceUrl: string;
  tag: string;
  discovery: BazaarExtension;
}

/** How long a signed payment authorization may take to arrive (x402 `maxTimeoutSeconds`). */
export const PAYMENT_TIMEOUT_SECONDS = 60;

/** The EIP-712 domain name and version of USDC (FiatToken v2) that authorizations are signed under. */
export const USDC_EIP712_DOMAIN = { name: 'USD Coin', version: '2' } as const;

/** What a payment offer for one route needs besides the price. */
function mimeTypeOf(row: RouteRow): string {
  return row.kind === 'document' ? row.contentType : 'application/json';
}

/**
 * GET /.well-known/x402: the receiver, asset and facilitator, and one x402 v1 `exact` requirement per priced route of
 * the table (prices from the table: one source of truth), plus the route's method, path and priceUSD.
 */
export function x402Configuration(p: {
  config: AppConfig;
  table: RouteTable;
  baseUrl: string;
  facilitatorUrl: string;
  /** Bazaar discovery of each priced row (the same its 402 offers); the server passes one for every priced row. */
  discovery: ReadonlyMap<RouteRow, BazaarExtension>;
  /** The MCP tools sold per call. */
  tools: readonly PricedTool[];
}): X402Config {
  const { x402 } = p.config;
  const accepts = p.table.rows.flatMap((row) => {
    const price = routePriceUsd(row, x402.defaultPriceUsd);
    if (price === undefined) return [];
    // A subgraph served alone (npm run subgraph) has no OpenAPI document to describe routes with: no discovery.
    const discovery = p.discovery.get(row);
    return [
      {
        scheme: 'exact',
        network: x402.network,
        method: row.method,
        path: row.path,
        resource: `${p.baseUrl}${row.path}`,
        description: row.summary,
        mimeType: mimeTypeOf(row),
        priceUSD: price,
        maxAmountRequired: usdToUsdcUnits(price),
        payTo: x402.receiver,
        asset: x402.asset,
        maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
        extra: { ...USDC_EIP712_DOMAIN },
        serviceName: SERVICE_NAME,
        tags: bazaarTags([row.tag]),
        outputSchema: (discovery && v1OutputSchema(discovery)) ?? {},
        extensions: discovery ? { bazaar: discovery } : {},
      },
    ];
  });
  const tools = p.tools.map((tool) => ({
    toolName: tool.name,
    resource: tool.resourceUrl,
    description: tool.summary,
    priceUSD: tool.priceUsd,
    scheme: 'exact',
    network: `eip155:${x402.chainId}`,
    amount: usdToUsdcUnits(tool.priceUsd),
    payTo: x402.receiver,
    asset: x402.asset,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: { ...USDC_EIP712_DOMAIN },
    serviceName: SERVICE_NAME,
    tags: bazaarTags([tool.tag, 'MCP']),
    extensions: { bazaar: tool.discovery },
  }));
  return {
    x402Version: 1,
    network: x402.network,
    chainId: x402.chainId,
    asset: x402.asset,
    assetSymbol: 'USDC',
    receiver: x402.receiver,
    facilitator: p.facilitatorUrl,
    accepts,
    tools,
  };
}
