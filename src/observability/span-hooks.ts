import { inSpan } from './tracer.js';

/*
 * One function per kind of span below the HTTP one; each call site is a one-line wrap. With tracing off each is a
 * plain call of `run`.
 */

/**
 * One upstream call of a source (every attempt and retry under one deadline; cache hits make none).
 * @example await traceUpstreamCall(this.policy, () => this.callUpstream(fetcher, idempotent))
 */
export function traceUpstreamCall<T>(source: { name: string; kind: string }, run: () => Promise<T>): Promise<T> {
  return inSpan(`upstream ${source.name}`, { 'upstream.source': source.name, 'upstream.kind': source.kind }, run);
}

/**
 * One store call (`consumeQuota`, `claimDeliveries` …) on SQLite or Redis.
 * @example await traceStoreCall('redis', 'consumeQuota', () => store.consumeQuota(args))
 */
export function traceStoreCall<T>(system: string, call: string, run: () => Promise<T>): Promise<T> {
  return inSpan(`store ${call}`, { 'db.system.name': system, 'db.operation.name': call }, run);
}

/**
 * One DataLoader batch: the keys its resolvers asked in one tick, answered by one upstream call or multicall.
 * @example new DataLoader((keys) => traceLoaderBatch('ensAddress', keys.length, () => batch(keys)))
 */
export function traceLoaderBatch<T>(loader: string, size: number, run: () => Promise<T>): Promise<T> {
  return inSpan(`loader ${loader}`, { 'loader.name': loader, 'loader.batch_size': size }, run);
}
