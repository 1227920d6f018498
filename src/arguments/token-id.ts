import { z } from 'zod';

const UINT256_MAX = 2n ** 256n - 1n;

/** An ERC-721/1155 token id in decimal, 0 to 2^256 − 1 (text: GraphQL's Int cannot hold it). */
export const tokenId = z
  .string()
  .regex(/^\d{1,78}$/, 'must be a decimal integer')
  // zod runs every check even after one failed: the refine must not assume the regex passed.
  .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= UINT256_MAX, 'must be at most 2^256 − 1')
  .describe('token id, decimal')
  .meta({ example: '1' });
