import type { JsonSchema } from '../../../rest-compat/openapi/openapi-types.js';
import { PAYMENT_REQUIRED_V2_SCHEMA } from '../../access/payment-required-schema.js';

/** Where the offer's schema sits in a priced tool's `$defs`. */
export const PAYMENT_REQUIRED_DEF = 'X402PaymentRequired';

/**
 * A priced tool's outputSchema: its 200 body, or x402's PaymentRequired. Stock MCP clients (the SDK's `callTool`,
 * MCP Inspector) check `structuredContent` against the outputSchema on error results too (typescript-sdk issue 1943),
 * so a schema of the data alone makes them throw -32602 instead of showing the price.
 * @example orPaymentRequired({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }).anyOf.length // 2
 */
export function orPaymentRequired(
  data: JsonSchema & { type: 'object' },
): JsonSchema & { type: 'object'; anyOf: JsonSchema[] } {
  const { $defs, ...body } = data;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  if (defs[PAYMENT_REQUIRED_DEF] !== undefined)
    throw new Error(`a tool's output already defines ${PAYMENT_REQUIRED_DEF}`);
  return {
    type: 'object',
    anyOf: [body, { $ref: `#/$defs/${PAYMENT_REQUIRED_DEF}` }],
    $defs: { ...defs, [PAYMENT_REQUIRED_DEF]: PAYMENT_REQUIRED_V2_SCHEMA as unknown as JsonSchema },
  };
}
