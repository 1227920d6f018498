import type { PaymentRequiredV2 } from './payment-offer.js';

/**
 * JSON Schema of the x402 v2 PaymentRequired this service offers ({@link PaymentRequiredV2}): what an MCP tool's
 * error result carries as `structuredContent` past the free quota (x402 MCP transport), so its outputSchema admits it.
 * @example new Ajv2020().validate(PAYMENT_REQUIRED_V2_SCHEMA, paymentRequiredOf(err)) // true
 */
export const PAYMENT_REQUIRED_V2_SCHEMA = {
  type: 'object',
  title: 'x402 PaymentRequired (v2)',
  description:
    'Past the free quota a priced tool answers this x402 v2 offer (isError: true): pay it by calling the tool again with the signed payment in _meta["x402/payment"].',
  required: ['x402Version', 'resource', 'accepts'],
  properties: {
    x402Version: { type: 'integer', const: 2 },
    error: { type: 'string', description: "x402's reason: why a payment is needed, or why a sent one was refused" },
    resource: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', description: 'mcp://tool/<name> for a tool' },
        description: { type: 'string' },
        mimeType: { type: 'string' },
        serviceName: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    accepts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'],
        properties: {
          scheme: { type: 'string', description: 'exact' },
          network: { type: 'string', description: 'CAIP-2, eip155:8453 (Base)' },
          amount: { type: 'string', pattern: '^[0-9]+$', description: 'USDC base units (6 decimals)' },
          asset: { type: 'string', description: 'USDC on Base' },
          payTo: { type: 'string' },
          maxTimeoutSeconds: { type: 'integer' },
          extra: { type: 'object', description: "the asset's EIP-712 domain name and version" },
        },
      },
    },
    extensions: { type: 'object', description: 'x402 extensions: bazaar (how to call the tool)' },
  },
} as const satisfies Record<string, unknown> & { properties: Record<keyof PaymentRequiredV2, unknown> };
