/** One request the benchmark sends. */
export interface BenchRequest {
  /** Label in the table and in bench-results.json. */
  name: string;
  method: 'GET' | 'POST';
  /** Path with its query string, e.g. `/api/gas?chain=base`. */
  path: string;
  headers?: Record<string, string>;
  /** Request body; sent as JSON unless `headers` name another content type. */
  body?: string;
}

/** One request the benchmark drives against the service and against its baseline. */
export interface BenchRoute extends BenchRequest {
  /**
   * What the service's answer is measured against: a bare fastify returning the same bytes (the default, with a
   * second one returning the body alone), bare node:http returning them, or another request to the service itself.
   */
  baseline?: 'fastify' | 'node:http' | BenchRequest;
  /** Minimum service ÷ baseline requests-per-second ratio; omitted = measured and reported, never fails the run. */
  goal?: number;
}

const graphql = (query: string) => JSON.stringify({ query });

/** What a stock MCP client sends with every Streamable HTTP request after initialization. */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/**
 * The routes `npm run bench` measures, in order. Every row runs the whole access layer: the server under test
 * gets anonymous limits high enough that each call is identified, counted (on counted tiers) and answered 200.
 */
export const BENCH_ROUTES: BenchRoute[] = [
  // Free tier: the access layer answers without touching the store; gas is cached 12 s by its source.
  { name: 'GET /api/gas', method: 'GET', path: '/api/gas', goal: 0.8 },
  // THE cached counted route: light tier, so identify → three atomic quota counters in the store → rate-limit
  // headers on every call; the price is cached by its source (30 s freshness).
  { name: 'GET /api/price/ETH', method: 'GET', path: '/api/price/ETH', goal: 0.8 },
  // The same row as an agent tool: MCP tools/call (stateless, no initialize) against its own REST path, same service.
  {
    name: 'MCP tools/call get_token_price ÷ its REST path',
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_token_price', arguments: { symbol: 'ETH' } },
    }),
    baseline: { name: 'REST GET /api/price/ETH', method: 'GET', path: '/api/price/ETH' },
    goal: 0.6,
  },
  // Reference, no gateway: bytes rendered at start, sent through the same HTTP stack and access check.
  // What is left of /api/gas's gap beyond this row's is the cost of executing its GraphQL operation.
  { name: 'GET /docs (pre-rendered, reference)', method: 'GET', path: '/docs' },
  // The fixed cost of /graphql: the smallest operation, against node:http writing the same bytes with no framework.
  {
    name: 'POST /graphql { __typename } ÷ node:http',
    method: 'POST',
    path: '/graphql',
    body: graphql('{ __typename }'),
    baseline: 'node:http',
    goal: 0.5,
  },
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
  // Heavy tier, uncached by design (docs/api-contract.md#data-freshness: ENS records are real time): 100 names, ONE
  // multicall eth_call per request.
  {
    name: 'GET /api/ens/batch (100 names)',
    method: 'GET',
    path: `/api/ens/batch?names=${['alice.eth', 'bob.eth', 'carol.eth', ...Array.from({ length: 97 }, (_, i) => `name-${i}.eth`)].join(',')}`,
  },
];
