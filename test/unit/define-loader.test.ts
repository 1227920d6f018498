import { describe, expect, it } from 'vitest';
import type { Sources } from '../../src/sources/sources.js';
import { defineLoader, RequestLoaders } from '../../subgraphs/shared/define-loader.js';
import { newGraphContext } from '../../subgraphs/shared/graph-context.js';

/** A fake upstream that records every batch it is asked, and answers each key doubled. */
function upstream() {
  const batches: number[][] = [];
  const loader = defineLoader<number, number, unknown>({
    name: 'doubled',
    batch: async (keys) => {
      batches.push([...keys]);
      return keys.map((k) => k * 2);
    },
  });
  return { batches, loader };
}

const request = () => ({ loaders: new RequestLoaders(), sources: undefined });

describe('defineLoader: a loader declared once, one DataLoader of it per request', () => {
  it('keys asked in one tick are one batch, in the order first asked, a repeated key once', async () => {
    const { batches, loader } = upstream();
    const ctx = request();
    const answers = await Promise.all([3, 1, 3, 2].map((k) => loader.of(ctx).load(k)));
    expect(answers).toEqual([6, 2, 6, 4]);
    expect(batches).toEqual([[3, 1, 2]]);
  });

  it('within a request a key is asked once; the next request asks again', async () => {
    const { batches, loader } = upstream();
    const first = request();
    await loader.of(first).load(7);
    await loader.of(first).load(7);
    expect(batches).toEqual([[7]]);
    await loader.of(request()).load(7);
    expect(batches).toEqual([[7], [7]]);
  });

  it("keys of two requests asked in the same tick are never batched together, and one request's primes stay its own", async () => {
    const { batches, loader } = upstream();
    const a = request();
    const b = request();
    loader.of(a).prime(5, 500);
    expect(await Promise.all([loader.of(a).load(5), loader.of(b).load(5), loader.of(b).load(6)])).toEqual([
      500, 10, 12,
    ]);
    expect(batches).toEqual([[5, 6]]);
  });

  it("newGraphContext gives every request a fresh scope; a copy of it ({ ...ctx, access }, as /graphql makes) shares the request's loaders", async () => {
    const { batches, loader } = upstream();
    const make = () =>
      newGraphContext({ requestId: 'r', sources: {} as Sources, app: {} as never, publicBaseUrl: 'http://localhost' });
    const ctx = make();
    const copy = { ...ctx, access: 'gate' };
    await Promise.all([loader.of(ctx).load(1), loader.of(copy).load(2)]);
    expect(loader.of(copy)).toBe(loader.of(ctx));
    expect(loader.of(make())).not.toBe(loader.of(ctx));
    expect(batches).toEqual([[1, 2]]);
  });

  it('object keys are batched and cached under their cache key: equal objects are one key', async () => {
    const batches: { chain: string; address: string }[][] = [];
    const holdings = defineLoader<{ chain: string; address: string }, string, unknown, string>({
      name: 'holdings',
      batch: async (wallets) => {
        batches.push([...wallets]);
        return wallets.map((w) => `${w.address} on ${w.chain}`);
      },
      cacheKey: (w) => `${w.chain}:${w.address}`,
    });
    const ctx = request();
    const answers = await Promise.all([
      holdings.of(ctx).load({ chain: 'base', address: '0xa' }),
      holdings.of(ctx).load({ chain: 'ethereum', address: '0xa' }),
      holdings.of(ctx).load({ chain: 'base', address: '0xa' }),
    ]);
    expect(answers).toEqual(['0xa on base', '0xa on ethereum', '0xa on base']);
    expect(batches).toEqual([
      [
        { chain: 'base', address: '0xa' },
        { chain: 'ethereum', address: '0xa' },
      ],
    ]);
    await holdings.of(ctx).load({ chain: 'ethereum', address: '0xa' });
    expect(batches).toHaveLength(1);
  });

  it("the batch reads the request's sources, and an Error answered for one key fails that key alone", async () => {
    const prices = defineLoader<string, number, Map<string, number>>({
      name: 'prices',
      batch: async (symbols, sources) => symbols.map((s) => sources.get(s) ?? new Error(`no price for ${s}`)),
    });
    const ctx = { loaders: new RequestLoaders(), sources: new Map([['ETH', 3000]]) };
    const [eth, nope] = await Promise.allSettled([prices.of(ctx).load('ETH'), prices.of(ctx).load('NOPE')]);
    expect(eth).toEqual({ status: 'fulfilled', value: 3000 });
    expect(nope).toMatchObject({ status: 'rejected', reason: { message: 'no price for NOPE' } });
  });

  it('maxBatchSize splits the keys of one tick into batches of at most that many', async () => {
    const batches: number[][] = [];
    const small = defineLoader<number, number, unknown>({
      name: 'small',
      batch: async (keys) => {
        batches.push([...keys]);
        return [...keys];
      },
      maxBatchSize: 2,
    });
    const ctx = request();
    await small.of(ctx).loadMany([1, 2, 3, 4, 5]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });
});
