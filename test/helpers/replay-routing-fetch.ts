import type { ReplayServer } from '../../src/embedded/replay/replay-server.js';

/** A request as the client sent it, to the live URL it was built for. */
export interface SentUpstreamRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A live base URL and the replay folder that answers in its place. */
export type ReplayRoute = readonly [liveBase: string, source: string];

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * A fetch that lets source clients keep their production URLs (hosts, key paths, key headers) while the replay
 * answers: each request is recorded as sent, then forwarded to the replay folder of the longest matching live base.
 * A URL no route covers fails like an unreachable host.
 * @example const fetch = replayRoutingFetch(replay, [['https://api.coingecko.com', 'coingecko']], sent)
 */
export function replayRoutingFetch(
  replay: Pick<ReplayServer, 'baseUrlFor'>,
  routes: readonly ReplayRoute[],
  sent: SentUpstreamRequest[] = [],
): typeof fetch {
  const sorted = [...routes].sort((a, b) => b[0].length - a[0].length);
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? init.body : undefined;
    sent.push({ method: (init?.method ?? 'GET').toUpperCase(), url, headers: headersOf(init), body });
    const route = sorted.find(([base]) => url.href === base || url.href.startsWith(`${base.replace(/\/+$/, '')}/`));
    if (!route) throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    const rest = url.href.slice(route[0].replace(/\/+$/, '').length);
    return fetch(`${replay.baseUrlFor(route[1])}${rest}`, init);
  };
}
