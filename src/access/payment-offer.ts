import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { type BazaarExtension, SERVICE_NAME, v1OutputSchema } from './bazaar-discovery.js';
import { PAYMENT_TIMEOUT_SECONDS, USDC_EIP712_DOMAIN, usdToUsdcUnits } from './payment-catalog.js';

/** What one payment is for: its price and the resource it buys. */
export interface PaymentTerms {
  /** USD, as the route table writes prices ("0.01"). */
  priceUsd: string;
  /** Absolute URL of the resource (x402 `resource`). */
  resource: string;
  description: string;
  mimeType: string;
  /** x402 bazaar discovery of the resource (how to call it, what it answers); offered with every 402. */
  discovery?: BazaarExtension | undefined;
  /** Bazaar listing tags (docs/api-contract.md#areas), within the bazaar's limits. */
  tags?: string[] | undefined;
}

/**
 * The v1 body's `error` when no payment was sent: one of x402's machine reasons, since the `x402` package's schema
 * (x402ResponseSchema) takes only those, and `@x402/core`'s any string; the sentence is in `message`.
 */
export const UNPAID_REASON = 'invalid_payment';

/** x402 v1 `exact` requirement (the x402 package's PaymentRequirements: network by name, no null outputSchema). */
export interface RequirementV1 {
  scheme: 'exact';
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra: { name: string; version: string };
  /** v1's place for bazaar discovery (src/access/bazaar-discovery.ts); absent when there is none. */
  outputSchema?: Record<string, unknown>;
}

/** x402 v2 `exact` requirement (CAIP-2 network, `amount`). */
export interface RequirementV2 {
  scheme: 'exact';
  network: `eip155:${number}`;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export type X402Settings = AppConfig['x402'];

export function requirementV1(x402: X402Settings, terms: PaymentTerms): RequirementV1 {
  const outputSchema = terms.discovery && v1OutputSchema(terms.discovery);
  return {
    scheme: 'exact',
    network: x402.network,
    maxAmountRequired: usdToUsdcUnits(terms.priceUsd),
    resource: terms.resource,
    description: terms.description,
    mimeType: terms.mimeType,
    payTo: x402.receiver,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    asset: x402.asset,
    extra: { ...USDC_EIP712_DOMAIN },
    ...(outputSchema ? { outputSchema } : {}),
  };
}

export function requirementV2(x402: X402Settings, terms: PaymentTerms): RequirementV2 {
  return {
    scheme: 'exact',
    network: `eip155:${x402.chainId}`,
    amount: usdToUsdcUnits(terms.priceUsd),
    asset: x402.asset,
    payTo: x402.receiver,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: { ...USDC_EIP712_DOMAIN },
  };
}

/** x402 v2 PaymentRequired: what a 402 offers, in the `PAYMENT-REQUIRED` header and an MCP tool's error result. */
export interface PaymentRequiredV2 {
  x402Version: 2;
  error: string;
  resource: { url: string; description: string; mimeType: string; serviceName: string; tags?: string[] };
  accepts: RequirementV2[];
  extensions?: { bazaar: BazaarExtension };
}

/** The PaymentRequired a 402 offer from `paymentRequired` carries (decoded from its header), else undefined. */
export function paymentRequiredOf(err: ApiError): PaymentRequiredV2 | undefined {
  const header = err.status === 402 ? err.headers['PAYMENT-REQUIRED'] : undefined;
  return header === undefined
    ? undefined
    : (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as PaymentRequiredV2);
}

/** base64 of the JSON: how x402 carries objects in headers. */
export function encodeHeaderJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/**
 * The 402 that offers a payment, in both protocol versions at once, through the one error renderer:
 * - body: x402 v1's PaymentRequirementsResponse (`x402Version: 1`, `error` as a string, `accepts: [requirement]`) with
 *   the contract's `priceUSD` and `recipient` (docs/api-contract.md#x402-payment) and the envelope's `code:
 * PAYMENT_REQUIRED`, `message` and `timestamp`. `error`
 *   is x402's machine reason: why a sent payment was refused (e.g. `invalid_exact_evm_payload_recipient_mismatch`),
 *   else {@link UNPAID_REASON}; x402's string wins over the envelope's `error: true`
 * (docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent);
 * - header `PAYMENT-REQUIRED`: x402 v2's PaymentRequired (base64 JSON: `x402Version: 2`, `error` the refusal's
 *   reason or else the message, `resource`, `accepts` with network `eip155:8453` and `amount`).
 * @example throw paymentRequired(config.x402, terms, { message: 'Daily limit exceeded …' })
 */
export function paymentRequired(
  x402: X402Settings,
  terms: PaymentTerms,
  p: { message: string; reason?: string; extra?: Record<string, unknown>; headers?: Record<string, string> },
): ApiError {
  const v2: PaymentRequiredV2 = {
    x402Version: 2,
    error: p.reason ?? p.message,
    resource: {
      url: terms.resource,
      description: terms.description,
      mimeType: terms.mimeType,
      serviceName: SERVICE_NAME,
      ...(terms.tags && terms.tags.length > 0 ? { tags: terms.tags } : {}),
    },
    accepts: [requirementV2(x402, terms)],
    ...(terms.discovery ? { extensions: { bazaar: terms.discovery } } : {}),
  };
  return new ApiError(
    'PAYMENT_REQUIRED',
    p.message,
    {
      ...p.extra,
      // Replaces the envelope's `error: true` where the renderer merges it (src/errors/error-envelope.ts).
      error: p.reason ?? UNPAID_REASON,
      priceUSD: terms.priceUsd,
      recipient: x402.receiver,
      x402Version: 1,
      accepts: [requirementV1(x402, terms)],
    },
    { ...p.headers, 'PAYMENT-REQUIRED': encodeHeaderJson(v2), 'Cache-Control': 'no-store' },
  );
}
