/**
 * A place in the one order in which requests arrive and head reads start (docs/api-contract.md#data-freshness): a
 * head read started after a request arrived sees every block its caller saw mined before asking, so it is exact for
 * that request, whichever request started it. A counter, not a clock: two marks never tie, and taking one is an
 * increment.
 */
export type AskedAt = number;

let last = 0;

/**
 * The next mark of the order: taken as a request arrives (its `askedAt`) and as a head read starts.
 * @example const askedAt = markAsked() // later: reads.read(key, fetcher, askedAt)
 */
export function markAsked(): AskedAt {
  last += 1;
  return last;
}
