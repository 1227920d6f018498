import { z } from 'zod';

/** Most addresses one batch call takes (type and validate): 100 fit one eth_call with room to spare. */
export const MAX_BATCH_ADDRESSES = 100;

/** One entry the validate route judges: anything up to 200 characters (malformed ones are answered, not refused). */
export const validationEntry = z.string().max(200, 'an entry is at most 200 characters');
