import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, DEFAULT_PAGE_OFFSET, MAX_PAGE_LIMIT } from './pagination.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A webhook's id: a UUID; anything else is a malformed id, not an unknown webhook.
 * @example webhookId.parse('3b241101-e2bb-4255-8caf-4136c566a962')
 */
export const webhookId = z
  .string()
  .regex(UUID, 'must be a webhook id (UUID)')
  .describe('webhook id')
  .meta({ example: '3b241101-e2bb-4255-8caf-4136c566a962' });

/** A delivery's id: a UUID. */
export const deliveryId = z
  .string()
  .regex(UUID, 'must be a delivery id (UUID)')
  .describe('delivery id')
  .meta({ example: '9f1c2b7e-5d4a-4c3b-8a1e-2f6d7c8b9a01' });

/**
 * A page of a webhook's deliveries: SPEC's offset pagination (1 to 100, default 20) from an offset up to a million.
 * @example deliveriesLimit.parse('50') // 50
 */
export const deliveriesLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_LIMIT)
  .default(DEFAULT_PAGE_LIMIT)
  .describe(`page size, 1 to ${MAX_PAGE_LIMIT}`);
export const deliveriesOffset = z.coerce
  .number()
  .int()
  .min(0)
  .max(1_000_000)
  .default(DEFAULT_PAGE_OFFSET)
  .describe('deliveries to skip');
