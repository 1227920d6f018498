import type { LiveFilters } from '../arguments/live-arguments.js';
import { type WebhookFilters, webhookFamily } from '../arguments/webhook-body.js';
import type { WebhookRecord } from '../store/webhook-store.js';

/** `*.base.eth` matches every name under base.eth (any depth); anything else matches exactly. */
export function namePatternMatches(pattern: string, name: string): boolean {
  return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
}

/** The addresses an event is about (sender, receiver, owner), lower-cased. */
function addressesOf(data: Record<string, unknown>): string[] {
  return ['from', 'to', 'owner']
    .map((k) => data[k])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.toLowerCase());
}

/** Who wants events: an active webhook, or an open subscription (src/webhooks/live-hub.ts) as the detectors see it. */
export type Watcher = Pick<WebhookRecord, 'id' | 'events'> & { filters: LiveFilters };

/**
 * Whether the webhook wants the event: it subscribed to the type, and the event passes its filters (ENS names,
 * watched addresses, watched FIDs). Events addressed to one webhook (pings, price crossings) go to it alone.
 */
export function webhookWants(
  webhook: Watcher,
  event: { type: string; data: Record<string, unknown>; onlyWebhook?: string | undefined },
): boolean {
  if (event.onlyWebhook !== undefined) return event.onlyWebhook === webhook.id;
  if (!webhook.events.includes(event.type)) return false;
  const filters = webhook.filters as WebhookFilters;
  const { data } = event;
  const family = webhookFamily(event.type);
  if (family === 'ens') {
    const name = typeof data.name === 'string' ? data.name : undefined;
    if (filters.names && !(name && filters.names.some((p) => namePatternMatches(p, name)))) return false;
    if (filters.addresses && !addressesOf(data).some((a) => filters.addresses!.includes(a))) return false;
    return true;
  }
  if (family === 'wallet') {
    return addressesOf(data).some((a) => filters.addresses?.includes(a) ?? false);
  }
  if (family === 'farcaster') {
    return typeof data.fid === 'number' && (filters.fids?.includes(data.fid) ?? false);
  }
  return false;
}
