import type { LiveFilters } from '../../arguments/live-arguments.js';
import { findToken } from '../../arguments/token-symbol.js';
import type { PriceSources } from '../../sources/prices/price-sources.js';
import type { Store } from '../../store/store.js';
import { eventId } from '../event-id.js';
import type { Watcher } from '../event-matching.js';
import type { PublishEvents } from '../event-publisher.js';
import type { DetectedEvent } from '../event-types.js';
import type { EventDetector } from '../start-webhooks.js';

/** `met:crossings:lastPrice`: whether the condition held at the last refresh, how often it became true, the price. */
function parseState(value: string | null): { met: boolean; crossings: number; price: number | null } {
  const match = value === null ? null : /^(true|false):(\d+):(.*)$/.exec(value);
  if (!match) return { met: false, crossings: 0, price: null };
  const price = Number(match[3]);
  return { met: match[1] === 'true', crossings: Number(match[2]), price: Number.isFinite(price) ? price : null };
}

/** `quotedAt:price` of the last refresh an every-refresh watch was told of. */
function parseRefresh(value: string | null): { refresh: string | null; price: number | null } {
  const at = value?.indexOf(':') ?? -1;
  if (value === null || at < 0) return { refresh: null, price: null };
  const price = Number(value.slice(at + 1));
  return { refresh: value.slice(0, at), price: Number.isFinite(price) ? price : null };
}

/**
 * `price.alert`: on each refresh of the prices source (CoinGecko's simple price, the one a token price answer is
 * made of), each webhook threshold whose condition (price ≥ above, or ≤ below) has just become true fires once; it
 * fires again only after the price went back. The condition's state is kept in the store with the events, per
 * webhook and threshold, so instances agree on each crossing (its id counts the crossings). A subscription watching
 * `everyRefresh` gets one on each new refresh (a quote with a new `quotedAt`; without one, each step), whatever the
 * price, with `direction: 'refresh'`; its id is the refresh's, so instances agree on it too.
 */
export function priceAlertDetector(p: {
  prices: Pick<PriceSources, 'coingecko'>;
  store: Store;
  /** Who wants events: the active webhooks and the open subscriptions (RunningWebhooks.wanted); default the webhooks. */
  wanted?: () => Promise<readonly Watcher[]>;
  publish: PublishEvents;
  intervalMs: number;
  now?: () => number;
}): EventDetector {
  const wanted = p.wanted ?? (() => p.store.listActiveWebhooks());
  const now = p.now ?? Date.now;
  return {
    name: 'price alerts',
    intervalMs: p.intervalMs,
    async step() {
      const webhooks = (await wanted()).filter((w) => w.events.includes('price.alert'));
      const thresholds = webhooks.flatMap((w) =>
        ((w.filters as LiveFilters).prices ?? []).map((t) => ({ webhook: w.id, ...t })),
      );
      const ids = [
        ...new Set(thresholds.map((t) => findToken(t.symbol)?.coingeckoId).filter((id) => id !== undefined)),
      ];
      if (ids.length === 0) return;
      const quotes = await p.prices.coingecko.marketQuotes(ids);
      const events: DetectedEvent[] = [];
      const cursors: Record<string, string> = {};
      for (const t of thresholds) {
        const quote = quotes.get(findToken(t.symbol)?.coingeckoId ?? '');
        if (!quote) continue;
        if (t.everyRefresh) {
          const key = `price:${t.webhook}:${t.symbol}:every`;
          const last = parseRefresh(await p.store.getCursor(key));
          const refresh = String(quote.quotedAt ?? Math.floor(now() / p.intervalMs));
          if (refresh !== last.refresh) {
            events.push({
              id: eventId('price.alert', key, refresh),
              type: 'price.alert',
              timestamp: quote.quotedAt ? quote.quotedAt * 1000 : now(),
              data: {
                symbol: t.symbol,
                price: quote.priceUsd,
                threshold: null,
                direction: 'refresh',
                previousPrice: last.price,
              },
              onlyWebhook: t.webhook,
            });
          }
          cursors[key] = `${refresh}:${quote.priceUsd}`;
          continue;
        }
        const direction = t.above !== undefined ? 'above' : 'below';
        const threshold = (t.above ?? t.below)!;
        const key = `price:${t.webhook}:${t.symbol}:${direction}:${threshold}`;
        const state = parseState(await p.store.getCursor(key));
        const met = direction === 'above' ? quote.priceUsd >= threshold : quote.priceUsd <= threshold;
        const crossings = met && !state.met ? state.crossings + 1 : state.crossings;
        if (met && !state.met) {
          events.push({
            id: eventId('price.alert', key, crossings),
            type: 'price.alert',
            timestamp: quote.quotedAt ? quote.quotedAt * 1000 : now(),
            data: { symbol: t.symbol, price: quote.priceUsd, threshold, direction, previousPrice: state.price },
            onlyWebhook: t.webhook,
          });
        }
        cursors[key] = `${met}:${crossings}:${quote.priceUsd}`;
      }
      await p.publish(events, cursors);
    },
  };
}
