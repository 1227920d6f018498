import type { AccessTallies } from '../observability/access-tallies.js';
import type { FacilitatorRequest, FacilitatorSource } from '../sources/x402/facilitator-source.js';
import { encodeHeaderJson } from './payment-offer.js';
import { PaymentRefused } from './x402-payment-payload.js';

/** x402's SettlementResponse: what a settled payment bought, for the caller's records. */
export interface PaymentReceipt {
  success: true;
  transaction: string;
  network: string;
  payer: `0x${string}`;
}

/** A verified payment whose nonce is now spent: settle it once the answer is ready, before sending it. */
export interface AuthorizedPayment {
  payer: `0x${string}`;
  /** Unique per payment (the authorizer and its EIP-3009 nonce): a credit purchase's ledger reference. */
  reference: string;
  /**
   * Settles through the facilitator, once; resolves to the settlement transaction and the response headers
   * (`X-PAYMENT-RESPONSE` for v1, `PAYMENT-RESPONSE` for v2). A refused settlement is a 402 and leaves the
   * authorization usable again; no answer is a 503 and keeps it spent (the transaction may have been sent).
   */
  settle(): Promise<{ transaction: string; receipt: PaymentReceipt; headers: Record<string, string> }>;
  /**
   * The call ended without settling (its answer was an error): the nonce is released, so the same authorization may
   * pay again. A no-op once settle() was called; safe to call more than once.
   */
  abandon(): void;
}

/**
 * A verified payment whose nonce is spent, settled at most once: settle() through the facilitator (a refusal releases
 * the nonce and is refused, no answer keeps it spent), or abandon() to release the nonce when the call's answer was an
 * error.
 * @example const paid = authorizedPayment({ payer, reference, request, facilitator, release, refuse, unavailable, network, responseHeader })
 */
export function authorizedPayment(p: {
  payer: `0x${string}`;
  reference: string;
  request: FacilitatorRequest;
  facilitator: FacilitatorSource;
  /** Gives the nonce back to the payer (the authorization may pay again). */
  release: () => Promise<unknown>;
  /** Throws the 402 offer for a refused payment, counted at its stage. */
  refuse: (err: PaymentRefused, stage: 'settle') => never;
  /** Counts and rethrows a facilitator that did not answer. */
  unavailable: (err: unknown) => never;
  /** The network the receipt names when the facilitator names none. */
  network: string;
  /** `X-PAYMENT-RESPONSE` (v1) or `PAYMENT-RESPONSE` (v2). */
  responseHeader: string;
  tallies?: AccessTallies;
}): AuthorizedPayment {
  let ended = false;
  return {
    payer: p.payer,
    reference: p.reference,
    abandon() {
      if (ended) return;
      ended = true;
      void p.release();
    },
    async settle() {
      if (ended) throw new Error('a payment is settled once, and not after it was abandoned');
      ended = true;
      const answer = await p.facilitator.settle(p.request).catch(p.unavailable);
      if (!answer.success) {
        await p.release();
        return p.refuse(
          new PaymentRefused(
            answer.errorReason ?? 'unexpected_settle_error',
            `settlement failed (${answer.errorReason ?? 'no reason given'}); nothing was charged and no data is sent`,
          ),
          'settle',
        );
      }
      p.tallies?.settled();
      const receipt: PaymentReceipt = {
        success: true,
        transaction: answer.transaction,
        network: answer.network || p.network,
        payer: p.payer,
      };
      return {
        transaction: answer.transaction,
        receipt,
        headers: { [p.responseHeader]: encodeHeaderJson(receipt), 'Cache-Control': 'no-store' },
      };
    },
  };
}
