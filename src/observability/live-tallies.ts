import { countInto } from './duration-tally.js';

/** The transports a subscription streams over (docs/live-data.md#transports). */
export type LiveTransport = 'sse' | 'websocket';

export const LIVE_TRANSPORTS: readonly LiveTransport[] = ['sse', 'websocket'];

/**
 * This instance's subscriptions for /metrics: open now by transport, events handed to each transport, and
 * subscriptions dropped because their reader let LIVE_BUFFER_EVENTS events wait.
 */
export class LiveTallies {
  readonly open = new Map<LiveTransport, number>();
  readonly delivered = new Map<LiveTransport, number>();
  readonly dropped = new Map<LiveTransport, number>();

  opened(transport: LiveTransport): void {
    countInto(this.open, transport);
  }

  closed(transport: LiveTransport): void {
    countInto(this.open, transport, -1);
  }

  deliveredOne(transport: LiveTransport): void {
    countInto(this.delivered, transport);
  }

  droppedOne(transport: LiveTransport): void {
    countInto(this.dropped, transport);
  }
}
