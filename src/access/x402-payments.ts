import { getAddress } from 'viem';
import type { ApiError } from '../errors/api-error.js';
import type { AccessTallies, PaymentFailure } from '../observability/access-tallies.js';
import type { FacilitatorRequest, FacilitatorSource } from '../sources/x402/facilitator-source.js';
import type { Store } from '../store/store.js';
import { type PaymentTerms, paymentRequired, type X402Settings } from './payment-offer.js';
import { checkPayment, v2NetworkOf } from './x402-payment-checks.js';
import { type DecodedPayment, decodePayment, PaymentRefused } from './x402-payment-payload.js';
import type { PresentedPayment } from './x402-presented-payment.js';
import { type AuthorizedPayment, authorizedPayment } from './x402-settlement.js';

export interface X402Payments {
  /**
   * Checks a presented payment against the terms (payee, amount, validity window, EIP-712 signature on USDC's
   * domain), spends its nonce in the store (atomic: once across every instance), and has the facilitator verify it.
   * Throws a 402 offer that names the reason, or a 503 when the facilitator does not answer.
   */
  authorize(payment: PresentedPayment, terms: PaymentTerms): Promise<AuthorizedPayment>;
  /** The 402 offer for these terms (to throw). */
  offer(
    terms: PaymentTerms,
    p: { message: string; extra?: Record<string, unknown>; headers?: Record<string, string> },
  ): ApiError;
}

/**
 * x402 per-request payments: local checks first (cheap, no I/O), then the spent-nonce record in the store, then the
 * facilitator's verify; settlement once the answer is ready (x402 `exact`: verify → run → settle → respond).
 * @example const payments = createX402Payments({ x402: config.x402, store, facilitator })
 */
export function createX402Payments(p: {
  x402: X402Settings;
  store: Pick<Store, 'markPaymentNonceSpent' | 'releasePaymentNonce'>;
  facilitator: FacilitatorSource;
  now?: () => number;
  /** Offers, settlements and failures, for /metrics. */
  tallies?: AccessTallies;
}): X402Payments {
  const { x402, tallies } = p;
  const now = p.now ?? Date.now;
  const refuse = (terms: PaymentTerms, err: PaymentRefused, stage: PaymentFailure): never => {
    tallies?.paymentFailed(stage);
    throw paymentRequired(x402, terms, { message: `Payment refused: ${err.message}`, reason: err.reason });
  };
  /** A store or facilitator that did not answer: counted, then its 503 goes on. */
  const unavailable = (err: unknown): never => {
    tallies?.paymentFailed('unavailable');
    throw err;
  };

  /** The payment decoded and checked without I/O, or its 402. */
  const checked = async (
    payment: PresentedPayment,
    terms: PaymentTerms,
    at: number,
  ): Promise<{ decoded: DecodedPayment; request: FacilitatorRequest }> => {
    try {
      const decoded = decodePayment(payment);
      return { decoded, request: await checkPayment(x402, decoded, terms, at) };
    } catch (err) {
      if (err instanceof PaymentRefused) return refuse(terms, err, 'check');
      throw err;
    }
  };

  return {
    offer(terms, o) {
      tallies?.offerMade();
      return paymentRequired(x402, terms, o);
    },
    async authorize(payment, terms) {
      const at = now();
      const { decoded, request } = await checked(payment, terms, at);
      const { authorization } = decoded.payload;
      const payer = getAddress(authorization.from);
      const reference = `x402:${x402.chainId}:${payer.toLowerCase()}:${authorization.nonce.toLowerCase()}`;
      // Spent before anything runs: of concurrent requests with one authorization, on any instance, one goes on.
      const first = await p.store
        .markPaymentNonceSpent({ key: reference, expiresAt: Number(authorization.validBefore) * 1000, now: at })
        .catch(unavailable);
      if (!first)
        return refuse(
          terms,
          new PaymentRefused(
            'duplicate_settlement',
            'this payment authorization was already used (replays are refused)',
          ),
          'replay',
        );

      // A payment refused before settlement never reached the chain: its authorization stays the payer's to use.
      const release = () => p.store.releasePaymentNonce(reference).catch(() => undefined);
      const verified = await p.facilitator.verify(request).catch(async (err: unknown) => {
        await release();
        return unavailable(err);
      });
      if (!verified.isValid) {
        await release();
        return refuse(
          terms,
          new PaymentRefused(
            verified.invalidReason ?? 'invalid_payment',
            `the facilitator refused the payment (${verified.invalidReason ?? 'no reason given'})`,
          ),
          'verify',
        );
      }
      const v1 = payment.header === 'X-PAYMENT' || decoded.x402Version === 1;
      return authorizedPayment({
        payer,
        reference,
        request,
        facilitator: p.facilitator,
        release,
        refuse: (err, stage) => refuse(terms, err, stage),
        unavailable,
        network: decoded.x402Version === 1 ? x402.network : v2NetworkOf(x402),
        responseHeader: v1 ? 'X-PAYMENT-RESPONSE' : 'PAYMENT-RESPONSE',
        tallies,
      });
    },
  };
}
