/**
 * What the subscription fields ask of the server (docs/live-data.md): implemented in src/webhooks/live-hub.ts over
 * the live event bus, reached through `GraphContext.app.live`.
 */
import type { LiveWatch } from '../../src/arguments/live-arguments.js';
import type { LiveTransport } from '../../src/observability/live-tallies.js';

/** One event as a subscription delivers it: the webhook delivery's body (docs/api-contract.md#events). */
export interface LiveEvent {
  id: string;
  type: string;
  /** ISO 8601. */
  timestamp: string;
  data: Record<string, unknown>;
  /** Its place in the replay log (`<ms>-<seq>`): the SSE `id:` a client resumes after (docs/live-data.md). */
  position?: string;
}

/** How one request streams its subscription: the transport, and the SSE `Last-Event-ID` it resumes after. */
export interface LiveVia {
  transport: LiveTransport;
  resumeAfter?: string | undefined;
}

export interface LiveServices {
  /**
   * The events matching `watch` from now on, until the caller stops reading (return()) or the server ends the stream;
   * a subscriber that lets too many events wait is ended with an error. Resolves once the detectors watch for it, so
   * what happens after it resolves is delivered. With `via.resumeAfter`, the events the replay log holds after that
   * position come first, each once.
   */
  open(watch: LiveWatch, via?: LiveVia): Promise<AsyncIterableIterator<LiveEvent>>;
}
