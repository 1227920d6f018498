import { z } from 'zod';
import { EVM_ADDRESS_PATTERN } from '../arguments/evm-address.js';
import type { PresentedPayment } from './x402-presented-payment.js';

/** Longest header value worth decoding: a payload is well under 2 KB. */
const MAX_HEADER_CHARS = 8192;

const uintString = z.string().regex(/^\d{1,78}$/);
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const address = z.string().regex(EVM_ADDRESS_PATTERN);
const exactEvmPayload = z.object({
  signature: z.string().regex(/^0x(?:[0-9a-fA-F]{2})+$/),
  authorization: z.object({
    from: address,
    to: address,
    value: uintString,
    validAfter: uintString,
    validBefore: uintString,
    nonce: hex32,
  }),
});
const paymentV1 = z.object({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactEvmPayload,
});
const paymentV2 = z
  .object({
    x402Version: z.literal(2),
    accepted: z
      .object({ scheme: z.string(), network: z.string(), amount: z.string(), asset: z.string(), payTo: z.string() })
      .passthrough(),
    payload: exactEvmPayload,
  })
  .passthrough();
const paymentPayload = z.discriminatedUnion('x402Version', [paymentV1, paymentV2]);
/** A payment payload of x402 v1 or v2 carrying an exact EVM payment (EIP-3009 authorization and signature). */
export type DecodedPayment = z.infer<typeof paymentPayload>;

/** A refused payment: x402's machine reason and a sentence for people. */
export class PaymentRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON payment payload a header carries as base64. */
function headerJson(value: string): unknown {
  if (value === '' || value.length > MAX_HEADER_CHARS)
    throw new PaymentRefused('invalid_payload', 'send exactly one payment header, base64 of the x402 payment payload');
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    throw new PaymentRefused('invalid_payload', 'the payment header is not base64 of a JSON payment payload');
  }
}

/**
 * The payment payload a header (base64 JSON) or an MCP call's `_meta` carries; a {@link PaymentRefused} when it is not
 * an exact EVM payment of x402 v1 or v2.
 */
export function decodePayment(payment: PresentedPayment): DecodedPayment {
  const json = payment.header === 'x402/payment' ? payment.payload : headerJson(payment.value);
  const parsed = paymentPayload.safeParse(json);
  if (!parsed.success) {
    const version = (json as { x402Version?: unknown } | null)?.x402Version;
    if (version !== 1 && version !== 2)
      throw new PaymentRefused('invalid_x402_version', 'x402Version must be 1 (X-PAYMENT) or 2 (PAYMENT-SIGNATURE)');
    throw new PaymentRefused(
      'invalid_payload',
      'the payment payload is not an exact EVM payment (signature and EIP-3009 authorization)',
    );
  }
  return parsed.data;
}
