import DataLoader from 'dataloader';
import { traceLoaderBatch } from '../../src/observability/span-hooks.js';
import type { AskedAt } from '../../src/sources/rpc/asked-at.js';

/**
 * One request's scope for loaders: every definition keeps its DataLoader for the request under this object, so a
 * request's resolvers share batches and cache, and the next request starts empty. Made once per request by
 * `newGraphContext`; copies of the context (`{ ...ctx, access }`) keep the same scope.
 */
export class RequestLoaders {
  /** Each definition's DataLoader, at the definition's index: a slot read per field, cheaper than a WeakMap entry. */
  readonly made: unknown[] = [];
}

/** Indexes handed to definitions, in the order their modules declare them. */
let definitions = 0;

/** What `load` needs of a context: the request's loader scope, the sources batch functions read, its arrival. */
export interface LoaderContext<S> {
  readonly loaders: RequestLoaders;
  readonly sources: S;
  /** When the request arrived (GraphContext.askedAt); undefined for none. */
  readonly askedAt?: AskedAt | undefined;
}

export interface LoaderSpec<K, V, S, C> {
  /** Names the loader's batches in traces (`loader ensAddress`). */
  name: string;
  /**
   * Answers every key asked in one tick, in their order: a value, or an Error that fails that key alone.
   * A batch that throws fails all its keys, and they are asked again on the next load. `askedAt`: when the request
   * arrived, for the chain reads it makes (src/sources/rpc/block-reads.ts).
   */
  batch(keys: readonly K[], sources: S, askedAt: AskedAt | undefined): Promise<readonly (V | Error)[]>;
  /** For object keys: the value a key is cached and deduplicated under. */
  cacheKey?: (key: K) => C;
  /** Keys per batch; more keys asked in one tick make several batches. */
  maxBatchSize?: number;
}

export interface LoaderDefinition<K, V, S, C = K> {
  /** The request's DataLoader for this definition: made on first ask, shared by every resolver of the request. */
  of(ctx: LoaderContext<S>): DataLoader<K, V, C>;
}

/**
 * Declares a loader once, by its batch function; each request gets its own DataLoader of it from the context.
 * @example
 * export const ensAddressLoader = defineLoader({
 *   name: 'ensAddress',
 *   batch: (names: readonly string[], sources: Sources, askedAt) => readerOf(sources).addresses(names, askedAt),
 *   maxBatchSize: MAX_ENS_BATCH,
 * });
 * const address = await ensAddressLoader.of(ctx).load('alice.eth');
 */
export function defineLoader<K, V, S, C = K>(spec: LoaderSpec<K, V, S, C>): LoaderDefinition<K, V, S, C> {
  const index = definitions++;
  return {
    of(ctx) {
      const { made } = ctx.loaders;
      let loader = made[index] as DataLoader<K, V, C> | undefined;
      if (!loader) {
        const { sources, askedAt } = ctx;
        loader = new DataLoader<K, V, C>(
          (keys) => traceLoaderBatch(spec.name, keys.length, () => spec.batch(keys, sources, askedAt)),
          {
            cacheKeyFn: spec.cacheKey,
            maxBatchSize: spec.maxBatchSize,
          },
        );
        made[index] = loader;
      }
      return loader;
    },
  };
}
