import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openRedisStore } from './redis-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

/** Where the store lives: Redis when `redisUrl` is set, else SQLite at `<dataDir>/store.sqlite`. */
export interface OpenStoreParams {
  dataDir: string;
  redisUrl?: string;
  /** Namespace of every Redis key (default `cia:`); ignored by SQLite, whose file is its namespace. */
  prefix?: string;
  /** Told about Redis connection errors (e.g. to log them); ignored by SQLite. */
  onError?: (err: Error) => void;
}

/**
 * Opens the configured store; rejects if Redis is configured but unreachable.
 * @example const store = await openStore({ dataDir: config.dataDir, redisUrl: config.redisUrl })
 */
export async function openStore(params: OpenStoreParams): Promise<Store> {
  if (params.redisUrl) return openRedisStore({ url: params.redisUrl, prefix: params.prefix, onError: params.onError });
  mkdirSync(params.dataDir, { recursive: true });
  return openSqliteStore({ file: join(params.dataDir, 'store.sqlite') });
}
