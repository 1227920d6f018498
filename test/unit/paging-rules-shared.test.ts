import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { OperationRow, RouteRow } from '../../rest-compat/route-row.js';
import { defiRoutes } from '../../rest-compat/routes/defi.js';
import { ensRoutes } from '../../rest-compat/routes/ens.js';
import { farcasterRoutes } from '../../rest-compat/routes/farcaster.js';
import { priceRoutes } from '../../rest-compat/routes/prices.js';
import { walletRoutes } from '../../rest-compat/routes/wallet.js';
import * as defi from '../../src/arguments/defi-arguments.js';
import { domainsLimit, domainsOffset, ensNameBatch } from '../../src/arguments/ens-arguments.js';
import {
  farcasterListLimit,
  farcasterListOffset,
  farcasterSearchLimit,
} from '../../src/arguments/farcaster-arguments.js';
import { optionalFeedCursor } from '../../src/arguments/feed-cursor.js';
import { integerInRange } from '../../src/arguments/integer-range.js';
import { historyDays, trendingLimit } from '../../src/arguments/price-arguments.js';
import { checkWithinWindow, walletLimit, walletWindowOffset } from '../../src/arguments/wallet-arguments.js';
import { MAX_NFT_WINDOW, MAX_TRANSACTION_WINDOW } from '../../src/arguments/wallet-limits.js';
import { PROJECT_ROOT, projectFiles } from '../helpers/import-graph.js';

/** The schema a row's query (or body) gives a parameter. */
function rowParameter(rows: readonly RouteRow[], id: string, part: 'query' | 'body', name: string): z.ZodType {
  const row = rows.find((r): r is OperationRow => r.kind === 'operation' && r.id === id);
  const schema = row?.params?.[part]?.shape[name];
  if (schema === undefined) throw new Error(`row ${id} has no ${part} parameter ${name}`);
  return schema as z.ZodType;
}

describe('a paging or range rule of a REST row', () => {
  it('is the very schema src/arguments exports for its resolver, not a second declaration', () => {
    const expected: [RouteRow[], string, 'query' | 'body', string, z.ZodType][] = [
      [priceRoutes, 'getTokenPriceHistory', 'query', 'days', historyDays],
      [priceRoutes, 'getTrendingTokens', 'query', 'limit', trendingLimit],
      [ensRoutes, 'postEnsBulk', 'body', 'names', ensNameBatch],
      [ensRoutes, 'getEnsDomains', 'query', 'limit', domainsLimit],
      [ensRoutes, 'getEnsDomains', 'query', 'offset', domainsOffset],
      [farcasterRoutes, 'searchFarcasterUsers', 'query', 'limit', farcasterSearchLimit],
      [farcasterRoutes, 'getFarcasterFeed', 'query', 'limit', farcasterListLimit],
      [farcasterRoutes, 'getFarcasterFeed', 'query', 'cursor', optionalFeedCursor],
      [farcasterRoutes, 'listFarcasterUserCasts', 'query', 'offset', farcasterListOffset],
      [farcasterRoutes, 'listFarcasterFollowers', 'query', 'limit', farcasterListLimit],
      [walletRoutes, 'getWalletTransactions', 'query', 'limit', walletLimit],
      [walletRoutes, 'getWalletTransactions', 'query', 'offset', walletWindowOffset(MAX_TRANSACTION_WINDOW)],
      [walletRoutes, 'getWalletNfts', 'query', 'offset', walletWindowOffset(MAX_NFT_WINDOW)],
      [defiRoutes, 'listDefiProtocols', 'query', 'limit', defi.defiListLimit],
      [defiRoutes, 'listYields', 'query', 'offset', defi.defiOffset],
      [defiRoutes, 'listYields', 'query', 'chain', defi.poolChainFilter],
      [defiRoutes, 'listYields', 'query', 'project', defi.poolProjectFilter],
      [defiRoutes, 'listEvents', 'query', 'type', defi.eventTypeFilter],
      [defiRoutes, 'listEvents', 'query', 'chain', defi.eventChainFilter],
      [defiRoutes, 'listEvents', 'query', 'limit', defi.eventsLimit],
      [defiRoutes, 'listUpcomingEvents', 'query', 'days', defi.upcomingDays],
    ];
    for (const [rows, id, part, name, rule] of expected) expect(rowParameter(rows, id, part, name)).toBe(rule);
  });

  it('keeps the wallet window rules: one offset schema per window, and the sum refused as integerInRange words it', () => {
    expect(walletWindowOffset(MAX_NFT_WINDOW)).toBe(walletWindowOffset(MAX_NFT_WINDOW));
    expect(walletWindowOffset(MAX_NFT_WINDOW).safeParse(MAX_NFT_WINDOW - 1).success).toBe(true);
    expect(walletWindowOffset(MAX_NFT_WINDOW).safeParse(MAX_NFT_WINDOW).success).toBe(false);
    expect(() => checkWithinWindow(980, 20, 1000)).not.toThrow();
    const wording = integerInRange(0, 980).safeParse(981).error?.issues[0]?.message;
    expect(() => checkWithinWindow(981, 20, 1000)).toThrow(`parameter offset: ${wording}`);
  });
});

describe('a resolver', () => {
  it('parses with schemas built once at load, never inside a function run per request', () => {
    const builds =
      /\b(pageLimit|pageOffset|integerInRange|argumentList|commaSeparated)\(|\bz\.\w+\(|\.(optional|nullable|nullish)\(\)/;
    const found = projectFiles(['subgraphs']).flatMap((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        // Module-level declarations start at column 0; an indented line is inside a function, class or literal.
        .filter(({ line }) => /^\s+\S/.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line) && builds.test(line))
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
