import type { WebhookEventType } from '../arguments/webhook-body.js';

/** Sent only by POST /api/webhooks/{id}/test; never subscribed to, never counted against the plan. */
export const PING_EVENT = 'ping';

/** A detected event, before it is matched to webhooks. */
export interface DetectedEvent {
  /** Stable across detections of the same fact (see {@link eventId}). */
  id: string;
  type: WebhookEventType | typeof PING_EVENT;
  /** When it happened (block time, cast time, refresh time), ms. */
  timestamp: number;
  data: Record<string, unknown>;
  /** Goes to this webhook only (a ping, or a price alert crossing that webhook's own threshold). */
  onlyWebhook?: string;
}

/** The delivery body (docs/api-contract.md#events): `{id, type, timestamp, data}`, timestamp in ISO 8601. */
export function eventPayload(event: DetectedEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: new Date(event.timestamp).toISOString(),
    data: event.data,
  });
}
