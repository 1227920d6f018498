import { z } from 'zod';
import { partError } from './parse-argument.js';
import {
  missingFilter,
  priceThreshold,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  type WebhookFamily,
  type WebhookFilters,
  webhookEvents,
  webhookFamily,
  webhookFilters,
} from './webhook-body.js';

/**
 * A GraphQL subscription field (docs/live-data.md) is one webhook family: the event types it may stream and the
 * filters it takes are the webhook body's (webhook-body.ts), checked by the same rules; these are the types a field
 * streams when its `events` argument is left out.
 */
export const LIVE_DEFAULT_EVENTS: Record<WebhookFamily, readonly WebhookEventType[]> = {
  ens: ['ens.transfer', 'ens.record_changed'],
  wallet: ['wallet.transfer', 'wallet.nft_transfer'],
  farcaster: ['farcaster.cast'],
  price: ['price.alert'],
};

/**
 * A price a subscription watches: a webhook's threshold (exactly one of above or below), or `everyRefresh`, a
 * `price.alert` on each refresh of the prices source whatever the price (docs/live-data.md).
 */
const livePrice = priceThreshold
  .extend({ everyRefresh: z.literal(true).optional() })
  .refine(
    (p) => [p.above, p.below, p.everyRefresh].filter((v) => v !== undefined).length === 1,
    'give exactly one of above, below or everyRefresh',
  );

/** A subscription's events and filters as one object, named as the fields' arguments are. */
const liveInput = z
  .object({
    events: webhookEvents,
    ...webhookFilters.shape,
    prices: z.array(livePrice).min(1).max(20).optional().describe('price thresholds, or every refresh (price.alert)'),
  })
  .strict();

/** A watched price: a webhook's threshold, or (a subscription's) every refresh. */
export type LivePrice = z.infer<typeof livePrice>;

/** The filters of a watch: a webhook's (WebhookFilters is one), or a subscription's, whose prices may be every refresh. */
export type LiveFilters = Omit<WebhookFilters, 'prices'> & { prices?: LivePrice[] | undefined };

/** What a subscription watches: the webhook filters it was given, and the event types of its family. */
export interface LiveWatch {
  events: WebhookEventType[];
  filters: LiveFilters;
}

/**
 * Checks a subscription field's arguments as a webhook's body would be (400 INVALID_PARAMETER naming the argument):
 * the event types must be of the field's family, and the filter the family cannot do without must be there.
 * @example liveWatch('wallet', { addresses: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'] })
 */
export function liveWatch(
  family: WebhookFamily,
  args: { events?: readonly string[] | null | undefined } & Partial<Record<keyof WebhookFilters, unknown>>,
): LiveWatch {
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
  const parsed = liveInput.safeParse({ events: LIVE_DEFAULT_EVENTS[family], ...given });
  if (!parsed.success) throw partError(parsed.error, 'arguments');
  const { events, ...filters } = parsed.data;
  const foreign = events.find((e) => webhookFamily(e) !== family);
  const types = WEBHOOK_EVENT_TYPES.filter((t) => webhookFamily(t) === family);
  if (foreign) throw partError(issue(['events'], `${foreign} is not one of ${types.join(', ')}`), 'arguments');
  const missing = missingFilter(events, filters);
  if (missing) throw partError(issue([], missing), 'arguments');
  return { events, filters };
}

function issue(path: string[], message: string): z.ZodError {
  return new z.ZodError([{ code: 'custom', path, message, input: undefined }]);
}
