import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags the server runs with, set before anything else is loaded (main.ts) and, identically, in the process
 * that writes the server body's code cache at build time (scripts/write-code-cache.mjs): V8 refuses a code cache made
 * under other flags.
 *
 * V8's allocation-site pretenuring learns at start-up, while the schema is composed and the contracts are loaded, that
 * objects from many shared allocation sites live long; it then allocates the per-request objects of those sites
 * straight into the old generation, so under load the old space grows by megabytes per scavenge and mark-compacts
 * follow. Turned off: measured on GET /api/price/ETH, 10.5k → 16k req/s, scavenges 8 ms → 1 ms, a flat heap
 * (npm run bench; docs/architecture.md#benchmark).
 * @example applyServerV8Flags()
 */
export function applyServerV8Flags(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
