import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAllSubgraphs, SUBGRAPH_MODULES } from '../../subgraphs/index.js';
import { composeSupergraph, parseSubgraphUrls, SubgraphUrlsError } from '../gateway/compose-supergraph.js';

/**
 * `npm run supergraph -- --urls ens=http://127.0.0.1:4001/graphql,… [--out supergraph.graphql]`: the supergraph
 * schema/supergraph.graphql holds, with each subgraph's real URL in its `@join__graph`, ready for Apollo Router
 * (`router --supergraph`) or Hive Gateway (`hive-gateway supergraph`). SUBGRAPH_URLS stands for --urls.
 */
const usage = `usage: npm run supergraph -- --urls ${SUBGRAPH_MODULES.map((m) => `${m.name}=<url>`).join(',')} [--out <file>]\n`;
let values: { urls?: string; out?: string };
try {
  ({ values } = parseArgs({ options: { urls: { type: 'string' }, out: { type: 'string' } } }));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const raw = values.urls ?? process.env.SUBGRAPH_URLS;
if (!raw) {
  process.stderr.write(usage);
  process.exit(2);
}
let urls: Map<string, string>;
try {
  urls = parseSubgraphUrls(
    raw,
    SUBGRAPH_MODULES.map((m) => m.name),
  );
} catch (err) {
  if (!(err instanceof SubgraphUrlsError)) throw err;
  process.stderr.write(`${err.message}\n${usage}`);
  process.exit(2);
}
const out = resolve(values.out ?? 'supergraph.graphql');
writeFileSync(out, `${composeSupergraph(await buildAllSubgraphs(), urls).trimEnd()}\n`);
process.stdout.write(`wrote ${out} (${[...urls].map(([name, url]) => `${name} at ${url}`).join(', ')})\n`);
