import { countInto } from './duration-tally.js';

/** Delivery attempts this instance made, by outcome (`delivered`: a 2xx answer; `failed`: anything else). */
export class WebhookAttemptTallies {
  readonly attempts = new Map<'delivered' | 'failed', number>();

  attempted(ok: boolean): void {
    countInto(this.attempts, ok ? 'delivered' : 'failed');
  }
}
