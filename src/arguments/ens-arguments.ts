import { argumentList, commaSeparated } from './argument-list.js';
import { DEFAULT_DOMAINS_LIMIT, MAX_DOMAINS_OFFSET, MAX_ENS_BATCH } from './ens-limits.js';
import { ensName } from './ens-name.js';
import { pageLimit, pageOffset } from './integer-range.js';
import { MAX_PAGE_LIMIT } from './pagination.js';

/** How many names one batch lookup takes, and what they are called in its refusal. */
const ENS_NAME_BATCH = { max: MAX_ENS_BATCH, noun: 'ENS names' };

/**
 * 1 to MAX_ENS_BATCH ENS names as a list, each normalised (POST /api/ens/bulk, ensBatch, ensProfiles).
 * @example ensNameBatch.parse(['Alice.eth']) // ['alice.eth']
 */
export const ensNameBatch = argumentList(ensName, ENS_NAME_BATCH).describe(`1 to ${MAX_ENS_BATCH} ENS names`);

/**
 * The same batch as one comma-separated query value (GET /api/ens/batch?names=alice.eth,bob.eth).
 * @example ensNameBatchQuery.parse('alice.eth, Bob.eth') // ['alice.eth', 'bob.eth']
 */
export const ensNameBatchQuery = commaSeparated(ensName, ENS_NAME_BATCH)
  .describe(`comma-separated ENS names, 1 to ${MAX_ENS_BATCH}`)
  .meta({ example: 'alice.eth,bob.eth' });

/**
 * A page of the names an address holds: 1 to 100, DEFAULT_DOMAINS_LIMIT (50) when absent.
 * @example domainsLimit.parse(undefined) // 50
 */
export const domainsLimit = pageLimit(MAX_PAGE_LIMIT, DEFAULT_DOMAINS_LIMIT).describe(
  `names per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_DOMAINS_LIMIT})`,
);

/**
 * Names to skip: 0 to MAX_DOMAINS_OFFSET, 0 when absent.
 * @example domainsOffset.parse('50') // 50
 */
export const domainsOffset = pageOffset(MAX_DOMAINS_OFFSET).describe('names to skip (default 0)');
