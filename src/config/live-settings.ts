import { z } from 'zod';
import { type ConfigArea, type SettingsOf, withDefault } from './config-variable.js';

/** GraphQL subscriptions on /graphql (docs/live-data.md): what one caller may hold open, and what it costs. */
export const LIVE_AREA = {
  title: 'Live data (GraphQL subscriptions)',
  about: 'GraphQL subscriptions on /graphql over SSE and WebSocket: caps and cost (docs/live-data.md)',
  variables: {
    LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: withDefault(
      '20',
      z.coerce.number().int().min(1).max(10_000),
      'subscriptions one caller (API key, wallet or IP) may hold open on one instance',
    ),
    LIVE_EVENTS_PER_CALL: withDefault(
      '100',
      z.coerce.number().int().min(1).max(1_000_000),
      'events delivered per counted call: a subscription counts one call when it starts and one more per this many events',
    ),
    LIVE_BUFFER_EVENTS: withDefault(
      '256',
      z.coerce.number().int().min(1).max(100_000),
      'events waiting for one slow subscriber before it is dropped with an error',
    ),
    LIVE_REPLAY_SECONDS: withDefault(
      '60',
      z.coerce.number().int().min(1).max(3600),
      'how long published events are kept for an SSE client that reconnects with Last-Event-ID (it gets what it missed)',
    ),
    LIVE_REPLAY_EVENTS: withDefault(
      '10000',
      z.coerce.number().int().min(1).max(1_000_000),
      'the most published events kept for reconnecting SSE clients (the oldest go first), in process or in the Redis stream',
    ),
    LIVE_REPLAY_BYTES: withDefault(
      '8388608',
      z.coerce.number().int().min(1024).max(1_073_741_824),
      'the most bytes of events (as JSON) kept in process for reconnecting SSE clients, and given to one resuming client from the Redis stream (the oldest go first)',
    ),
  },
} as const satisfies ConfigArea;

export interface LiveConfig {
  live: {
    maxSubscriptionsPerCaller: number;
    eventsPerCall: number;
    bufferEvents: number;
    /** What the live bus keeps for a client resuming with Last-Event-ID (src/store/live-event-bus.ts). */
    replay: { windowMs: number; maxEvents: number; maxBytes: number };
  };
}

export function liveConfig(e: SettingsOf<typeof LIVE_AREA.variables>): LiveConfig {
  return {
    live: {
      maxSubscriptionsPerCaller: e.LIVE_MAX_SUBSCRIPTIONS_PER_CALLER,
      eventsPerCall: e.LIVE_EVENTS_PER_CALL,
      bufferEvents: e.LIVE_BUFFER_EVENTS,
      replay: {
        windowMs: e.LIVE_REPLAY_SECONDS * 1000,
        maxEvents: e.LIVE_REPLAY_EVENTS,
        maxBytes: e.LIVE_REPLAY_BYTES,
      },
    },
  };
}
