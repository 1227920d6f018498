import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { NameAndPriceQuery } from './generated/graphql.js';
import type { paths } from './generated/rest.js';

/**
 * A typed client: REST through openapi-fetch with the generated `paths` (a wrong path, parameter or field fails to
 * compile), GraphQL with the generated result type of examples/graphql/name-and-price.graphql.
 * Run: examples/typed-client/generate.sh && npx tsc -p examples/typed-client && node examples/typed-client/dist/client.js
 */
const api = (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

const rest = createClient<paths>({ baseUrl: api });
const resolved = await rest.GET('/api/ens/resolve/{name}', { params: { path: { name: 'alice.eth' } } });
if (!resolved.data) throw new Error(`GET /api/ens/resolve/alice.eth: ${resolved.response.status}`);
console.log(`REST: ${resolved.data.name} → ${resolved.data.address}`);

// The operation's text from the file the types were generated from (dist/client.js is two folders below it).
const query = readFileSync(new URL('../../graphql/name-and-price.graphql', import.meta.url), 'utf8');
const answer = await fetch(`${api}/graphql`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});
const { data } = (await answer.json()) as { data: NameAndPriceQuery };
console.log(`GraphQL: alice.eth → ${data.ensResolve?.address}, ETH at $${data.tokenPrice?.price}`);
