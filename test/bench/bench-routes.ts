/** One request the benchmark drives against the service and against a bare fastify returning the same bytes. */
export interface BenchRoute {
  /** Label in the table and in bench-results.json. */
  name: string;
  method: 'GET' | 'POST';
  /** Path with its query string, e.g. `/api/gas?chain=base`. */
  path: string;
  headers?: Record<string, string>;
  /** Request body; sent as JSON unless `headers` name another content type. */
  body?: string;
  /** Minimum service/bare requests-per-second ratio; omitted = measured and reported, never fails the run. */
  goal?: number;
}

const graphql = (query: string) => JSON.stringify({ query });

/**
 * The routes `npm run bench` measures, in order. Every row runs the whole access layer: the server under test
 * gets anonymous limits high enough that each call is identified, counted (on counted tiers) and answered 200.
 */
export const BENCH_ROUTES: BenchRoute[] = [
  // Free tier: the access layer answers without touching the store; gas is cached 12 s by its source.
  { name: 'GET /api/gas', method: 'GET', path: '/api/gas', goal: 0.5 },
  // gasPrices alone is free on /graphql too: a root field takes the tier of its REST row (/api/gas is free).
  {
    name: 'POST /graphql gasPrices',
    method: 'POST',
    path: '/graphql',
    body: graphql('{ gasPrices { chain baseFee standard { maxFeePerGas } } }'),
  },
  // supportedChains has no REST row, so the operation is medium: three quota counters move in the store per call.
  {
    name: 'POST /graphql gasPrices+supportedChains (medium)',
    method: 'POST',
    path: '/graphql',
    body: graphql('{ gasPrices { chain baseFee standard { maxFeePerGas } } supportedChains { key id } }'),
  },
];
