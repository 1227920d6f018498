import { pageLimit, pageOffset } from './integer-range.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './pagination.js';
import { uuidArgument } from './uuid.js';

/**
 * A webhook's id: a UUID; anything else is a malformed id, not an unknown webhook.
 * @example webhookId.parse('3b241101-e2bb-4255-8caf-4136c566a962')
 */
export const webhookId = uuidArgument('a webhook id')
  .describe('webhook id')
  .meta({ example: '3b241101-e2bb-4255-8caf-4136c566a962' });

/** A delivery's id: a UUID. */
export const deliveryId = uuidArgument('a delivery id')
  .describe('delivery id')
  .meta({ example: '9f1c2b7e-5d4a-4c3b-8a1e-2f6d7c8b9a01' });

/**
 * The contract gives offset pagination no maximum offset (docs/api-contract.md#pagination); a webhook's deliveries can
 * be skipped up to a million.
 */
export const MAX_DELIVERIES_OFFSET = 1_000_000;

/**
 * A page of a webhook's deliveries: the contract's offset pagination (docs/api-contract.md#pagination) (1 to 100,
 * default 20), the rule every list shares.
 * @example deliveriesLimit.parse('50') // 50
 */
export const deliveriesLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT).describe(
  `page size, 1 to ${MAX_PAGE_LIMIT}`,
);

/**
 * How many of a webhook's deliveries to skip, 0 to MAX_DELIVERIES_OFFSET (default 0).
 * @example deliveriesOffset.parse('40') // 40
 */
export const deliveriesOffset = pageOffset(MAX_DELIVERIES_OFFSET).describe('deliveries to skip');
