import type { SecurityRequirement, SecuritySchemeObject } from './openapi-types.js';

/** SPEC "Authentication": API key, SIWE session token, per-request x402 payment. */
export const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  ApiKeyAuth: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API key created with POST /api/user/keys; limits and credits are tracked per key.',
  },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'SIWE session token from POST /api/auth/siwe/verify, valid 24 hours.',
  },
  X402Payment: {
    type: 'apiKey',
    in: 'header',
    name: 'X-PAYMENT',
    description:
      'x402 payment: base64 of a signed EIP-3009 USDC transfer on Base (chain 8453) for the price a 402 answer names.',
  },
};

/**
 * Security of a counted operation: any one scheme, or none (anonymous, within the free tier).
 * @example operation.security = countedSecurity()
 */
export function countedSecurity(): SecurityRequirement[] {
  return [{ ApiKeyAuth: [] }, { BearerAuth: [] }, { X402Payment: [] }, {}];
}
