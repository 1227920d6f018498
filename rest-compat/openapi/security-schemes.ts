import type { RowCredentials } from '../route-row.js';
import type { SecurityRequirement, SecuritySchemeObject } from './openapi-types.js';

/** docs/api-contract.md#authentication: API key, SIWE session token, per-request x402 payment. */
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
 * The security of an operation: the ways to call it, each a set of schemes sent together (`{}`: none at all).
 * A free row needs nothing (`[]`); an open counted row takes a key, a session, a payment where it is sold, or nothing
 * (anonymous, within the free quota); a session row takes only a session, and a wallet row a session or a key, each
 * with a payment beside it where the row is sold.
 * @example operationSecurity({ credentials: 'session', payable: true }) // [{ BearerAuth: [] }, { BearerAuth: [], X402Payment: [] }]
 */
export function operationSecurity(p: { credentials: RowCredentials; payable: boolean }): SecurityRequirement[] {
  const identities: SecurityRequirement[] =
    p.credentials === 'session'
      ? [{ BearerAuth: [] }]
      : p.credentials === 'wallet'
        ? [{ BearerAuth: [] }, { ApiKeyAuth: [] }]
        : [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
  switch (p.credentials) {
    case 'none':
      return [];
    case 'optional':
      return [...identities, ...(p.payable ? [{ X402Payment: [] }] : []), {}];
    default:
      return [...identities, ...(p.payable ? identities.map((id) => ({ ...id, X402Payment: [] })) : [])];
  }
}
