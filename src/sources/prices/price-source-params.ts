import type { HttpUpstreamParams } from '../http-upstream.js';

/** SPEC "Data freshness": token prices 30 seconds. */
export const PRICE_FRESHNESS_MS = 30_000;

/** What every price client is built from: where the upstream is, and how it is watched (headers are the client's own). */
export type PriceClientParams = Omit<HttpUpstreamParams, 'headers'>;
