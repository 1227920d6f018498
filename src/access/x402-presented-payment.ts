/**
 * A payment as the caller sent it: an HTTP header's raw value and which protocol version's header carried it, or the
 * payment payload object an MCP tool call carries in `_meta["x402/payment"]` (x402's MCP transport).
 */
export type PresentedPayment = HeaderPayment | { header: 'x402/payment'; payload: unknown };

export interface HeaderPayment {
  /** `X-PAYMENT` (x402 v1) or `PAYMENT-SIGNATURE` (x402 v2); header names are case-insensitive. */
  header: 'X-PAYMENT' | 'PAYMENT-SIGNATURE';
  value: string;
}

/** The request headers an x402 payment travels in (v1, v2), lower-case. */
export const PAYMENT_HEADERS = ['x-payment', 'payment-signature'] as const;

/** The payment header a request carries, if any: two property reads, no allocation when there is none. */
export function presentedPayment(headers: Record<string, string | string[] | undefined>): HeaderPayment | undefined {
  const v1 = headers['x-payment'];
  const v2 = headers['payment-signature'];
  if (v1 === undefined && v2 === undefined) return undefined;
  // Two payments, or one header sent twice, are ambiguous: an empty value is refused as a malformed payment.
  if (v1 !== undefined && v2 !== undefined) return { header: 'X-PAYMENT', value: '' };
  const value = v1 ?? v2;
  return {
    header: v1 !== undefined ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE',
    value: typeof value === 'string' ? value : '',
  };
}
