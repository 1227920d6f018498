import { describe, expect, it } from 'vitest';
import { metaPayment } from '../../src/http/mcp/call-agent-tool.js';

describe("a tools/call's payment in _meta: x402's MCP key and the npm x402-mcp client's", () => {
  const payload = { x402Version: 2, accepted: {}, payload: {} };

  it('none when neither key is sent', () => {
    expect(metaPayment(undefined)).toBeUndefined();
    expect(metaPayment({ progressToken: 1 })).toBeUndefined();
  });

  it('x402/payment carries a payload object, and its receipt goes under x402/payment-response', () => {
    expect(metaPayment({ 'x402/payment': payload })).toEqual({
      payment: { header: 'x402/payment', payload },
      receiptKey: 'x402/payment-response',
    });
  });

  it("x402.payment carries the X-PAYMENT header's base64 (or a payload), and its receipt goes under x402.payment-response", () => {
    expect(metaPayment({ 'x402.payment': 'eyJ4NDAyVmVyc2lvbiI6MX0=' })).toEqual({
      payment: { header: 'X-PAYMENT', value: 'eyJ4NDAyVmVyc2lvbiI6MX0=' },
      receiptKey: 'x402.payment-response',
    });
    expect(metaPayment({ 'x402.payment': payload })?.payment).toEqual({ header: 'x402/payment', payload });
  });

  it('both keys at once are ambiguous: an empty X-PAYMENT, which the payments refuse as a malformed payload', () => {
    expect(metaPayment({ 'x402/payment': payload, 'x402.payment': 'abc' })?.payment).toEqual({
      header: 'X-PAYMENT',
      value: '',
    });
  });
});
