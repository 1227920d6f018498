import type { RedisClient } from './redis-client.js';
import { assertCount } from './store-arguments.js';

/** Where a sorted set keeps a hash's ids (`rows`), and which way the page reads it. */
export interface HashIndex {
  /** The sorted set of ids. */
  order: string;
  /** The hash of rows by id. */
  rows: string;
  /** `ascending`: lowest score first (ZRANGE); `descending`: highest first (ZREVRANGE). */
  direction: 'ascending' | 'descending';
}

/**
 * One page of a hash's rows in the order a sorted set keeps their ids, each row parsed; rows that are gone (or that
 * `parse` refuses with null) are left out.
 * @example
 * await hashPage(redis, { order: 'p:subnames:order', rows: 'p:subnames', direction: 'ascending' }, { limit: 20, offset: 0 }, toSubname)
 */
export async function hashPage<T>(
  redis: RedisClient,
  index: HashIndex,
  page: { limit: number; offset: number },
  parse: (row: string | null) => T | null,
): Promise<T[]> {
  assertCount('limit', page.limit, 0);
  assertCount('offset', page.offset, 0);
  if (page.limit === 0) return [];
  const end = page.offset + page.limit - 1;
  const ids =
    index.direction === 'ascending'
      ? await redis.zrange(index.order, page.offset, end)
      : await redis.zrevrange(index.order, page.offset, end);
  if (ids.length === 0) return [];
  return (await redis.hmget(index.rows, ...ids)).map(parse).filter((row): row is T => row !== null);
}
