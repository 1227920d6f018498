import { countInto } from './duration-tally.js';

/** Which limit refused a call: the per-minute or daily quota, a key's credits, or its concurrent calls. */
export type QuotaRefusal = 'per_minute' | 'daily' | 'credits' | 'concurrency';

/**
 * Where an x402 payment failed: `check` our own checks (scheme, network, amount, signature, expiry), `replay` an
 * authorization used before, `verify` the facilitator refused it, `settle` its settlement failed, `unavailable` the
 * store or the facilitator did not answer.
 */
export type PaymentFailure = 'check' | 'replay' | 'verify' | 'settle' | 'unavailable';

/** Access decisions an operator watches: refusals by access mode and limit, x402 offers, settlements and failures. */
export class AccessTallies {
  /** Keyed `<mode> <limit>`; modes and limits are fixed sets. */
  readonly quotaRefusals = new Map<string, number>();
  /** 402 offers answered to calls past the daily limit. */
  offers = 0;
  settlements = 0;
  readonly paymentFailures = new Map<PaymentFailure, number>();

  quotaRefused(mode: string, limit: QuotaRefusal): void {
    countInto(this.quotaRefusals, `${mode} ${limit}`);
  }

  offerMade(): void {
    this.offers += 1;
  }

  settled(): void {
    this.settlements += 1;
  }

  paymentFailed(stage: PaymentFailure): void {
    countInto(this.paymentFailures, stage);
  }
}
