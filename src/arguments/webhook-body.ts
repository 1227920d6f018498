import { z } from 'zod';
import { isApiError } from '../errors/api-error.js';
import { normalizeEnsName } from './ens-name.js';
import { evmAddressSyntax } from './evm-address.js';
import { MAX_FID } from './farcaster-limits.js';
import { partError } from './parse-argument.js';
import { findToken, tokenSymbol } from './token-symbol.js';

/**
 * What callers send to create or change a webhook: the one definition both the REST rows (400 INVALID_PARAMETER
 * before anything runs) and the GraphQL mutations (through the webhook services) validate against.
 */

/** docs/api-contract.md#events: the event types a webhook may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'ens.transfer',
  'ens.expiring',
  'ens.expired',
  'ens.record_changed',
  'wallet.transfer',
  'wallet.nft_transfer',
  'farcaster.follow',
  'farcaster.cast',
  'price.alert',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An exact ENS name (`alice.eth`) or every name under a parent (`*.base.eth`), in ENSIP-15 normal form; its length
 * and labels are the ENS name rule's (normalizeEnsName: at most MAX_ENS_NAME_LENGTH characters).
 */
const namePattern = z.string().transform((value, ctx) => {
  const wildcard = value.startsWith('*.');
  try {
    // `*.eth` names a parent of one label; normalizeEnsName wants two, so the wildcard stands in for one.
    const name = normalizeEnsName(wildcard ? `x.${value.slice(2)}` : value);
    return wildcard ? `*${name.slice(1)}` : name;
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: isApiError(err) ? err.message : 'not an ENS name or *.parent pattern' });
    return z.NEVER;
  }
});

const address = evmAddressSyntax.transform((v) => v.toLowerCase());

/**
 * The token a price alert follows: a ticker (tokenSymbol), upper-cased, that the token table knows; the price detector
 * could never quote any other.
 */
export const alertSymbol = tokenSymbol
  .describe('a token the price routes quote: its ticker, any case, e.g. ETH')
  .transform((v) => v.toUpperCase())
  .superRefine((symbol, ctx) => {
    if (findToken(symbol) === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown token symbol: ${symbol}; a price alert follows a token the price routes quote, such as ETH or BTC`,
      });
    }
  });

/** A watched FID: the FID rule's range, 1 to MAX_FID (a JSON number; GraphQL's Int stops there too). */
const FID_RANGE = `must be an integer from 1 to ${MAX_FID}`;
const watchedFid = z.number({ error: FID_RANGE }).int(FID_RANGE).min(1, FID_RANGE).max(MAX_FID, FID_RANGE);

/** A price threshold's fields; a webhook gives exactly one of above or below (a subscription may also watch every refresh). */
export const priceThreshold = z
  .object({
    symbol: alertSymbol,
    above: z.number().positive().finite().optional(),
    below: z.number().positive().finite().optional(),
  })
  .strict();

const priceAlert = priceThreshold.refine(
  (p) => (p.above === undefined) !== (p.below === undefined),
  'give exactly one of above or below',
);

/** Which events of the subscribed types a webhook wants. */
export const webhookFilters = z
  .object({
    names: z.array(namePattern).min(1).max(100).optional().describe('ENS names or *.parent patterns (ens.*)'),
    addresses: z.array(address).min(1).max(100).optional().describe('watched addresses (wallet.*, and ens.*)'),
    fids: z.array(watchedFid).min(1).max(100).optional().describe('watched FIDs (farcaster.*)'),
    prices: z.array(priceAlert).min(1).max(20).optional().describe('price thresholds (price.alert)'),
  })
  .strict();

export type WebhookFilters = z.infer<typeof webhookFilters>;

export const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, 'subscribe to at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);

export const webhookUrl = z
  .string()
  .max(2048)
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), 'must be an http(s) URL');

/** Caller-chosen signing secret: 16 to 256 printable characters without spaces. */
export const webhookSecret = z
  .string()
  .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable ASCII characters without spaces');

export const webhookStatusChange = z.enum(['active', 'paused']);

/**
 * The webhook event families, each declared once: its type prefix, whether it is read from chain logs and blocks,
 * and the filter it cannot do without (without it, the event would mean every transfer or cast on the network).
 */
export const WEBHOOK_FAMILIES = [
  { family: 'ens', prefix: 'ens.', onChain: true, needs: undefined },
  {
    family: 'wallet',
    prefix: 'wallet.',
    onChain: true,
    needs: { filter: 'addresses', what: 'filters.addresses (the watched addresses)' },
  },
  {
    family: 'farcaster',
    prefix: 'farcaster.',
    onChain: false,
    needs: { filter: 'fids', what: 'filters.fids (the watched FIDs)' },
  },
  {
    family: 'price',
    prefix: 'price.',
    onChain: false,
    needs: { filter: 'prices', what: 'filters.prices (symbol with above or below)' },
  },
] as const satisfies readonly {
  family: string;
  prefix: string;
  onChain: boolean;
  needs: { filter: keyof WebhookFilters; what: string } | undefined;
}[];

export type WebhookFamily = (typeof WEBHOOK_FAMILIES)[number]['family'];

/**
 * The family of an event type, by its prefix (the one place the prefix rule is written); undefined for `ping`.
 * @example webhookFamily('wallet.nft_transfer') // 'wallet'
 */
export function webhookFamily(eventType: string): WebhookFamily | undefined {
  return WEBHOOK_FAMILIES.find((f) => eventType.startsWith(f.prefix))?.family;
}

/** Whether an event type is read from chain logs and blocks (the chain detectors watch for it). */
export const isChainEvent = (eventType: string): boolean =>
  WEBHOOK_FAMILIES.some((f) => f.onChain && eventType.startsWith(f.prefix));

/** The first event type subscribed without the filter it needs, as a message; null when all are covered. */
export function missingFilter(events: readonly string[], filters: WebhookFilters): string | null {
  for (const { prefix, needs } of WEBHOOK_FAMILIES) {
    const type = events.find((e) => e.startsWith(prefix));
    if (type && needs && filters[needs.filter] === undefined) return `${type} needs ${needs.what}`;
  }
  return null;
}

export const createWebhookBody = z
  .object({
    url: webhookUrl.describe('where deliveries are POSTed: https (http and private hosts only where allowed)'),
    events: webhookEvents.describe('event types to receive'),
    filters: webhookFilters.default({}).describe('which events of those types'),
    secret: webhookSecret.optional().describe('signing secret; generated (whsec_…) and shown once when omitted'),
  })
  .superRefine((body, ctx) => {
    const missing = missingFilter(body.events, body.filters);
    if (missing) ctx.addIssue({ code: 'custom', path: ['filters'], message: missing });
  });

export const updateWebhookBody = z
  .object({
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    filters: webhookFilters.optional(),
    status: webhookStatusChange.optional().describe('active or paused (active also resumes a disabled webhook)'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'change at least one of url, events, filters, status');

/**
 * Parses `value` with `schema`; the first problem is the 400 INVALID_PARAMETER the REST body gives, naming the field,
 * or `body` for a rule over the whole body (nothing to change).
 * @example parseWebhookInput(updateWebhookBody, { status: 'paused' }) // { status: 'paused' }
 */
export function parseWebhookInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw partError(parsed.error, 'body');
}
