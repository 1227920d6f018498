import type DataLoader from 'dataloader';
import type { Sources } from '../../src/sources/sources.js';

/** What every resolver receives: the request's id, the shared sources, and this request's loaders. */
export interface GraphContext {
  requestId: string;
  sources: Sources;
  /** One DataLoader per kind per request, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

/**
 * The request's loader for `key`, made on first use so that every resolver in one request shares it.
 * @example const l = requestLoader(ctx, 'ensAddress', (s) => ensAddressLoader(s))
 */
export function requestLoader<K, V>(
  ctx: GraphContext,
  key: string,
  make: (sources: Sources) => DataLoader<K, V>,
): DataLoader<K, V> {
  let found = ctx.loaders.get(key) as DataLoader<K, V> | undefined;
  if (!found) {
    found = make(ctx.sources);
    ctx.loaders.set(key, found as DataLoader<unknown, unknown>);
  }
  return found;
}

export function newGraphContext(requestId: string, sources: Sources): GraphContext {
  return { requestId, sources, loaders: new Map() };
}
