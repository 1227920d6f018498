import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SUBGRAPH_NAMES } from '../../subgraphs/subgraph-names.js';
import { exitWithHelpIfAsked } from './cli-help.js';

/** Where the supergraph goes without --out: under generated/, which .gitignore covers. */
const DEFAULT_OUT = 'generated/supergraph.graphql';

/**
 * `npm run supergraph -- --urls ens=http://127.0.0.1:4001/graphql,… [--out <file>]`: the supergraph
 * schema/supergraph.graphql holds, with each subgraph's real URL in its `@join__graph`, ready for Apollo Router
 * (`router --supergraph`) or Hive Gateway (`hive-gateway supergraph`). SUBGRAPH_URLS stands for --urls.
 */
const usage = `usage: npm run supergraph -- --urls ${SUBGRAPH_NAMES.map((name) => `${name}=<url>`).join(',')} [--out <file>]

Composes the supergraph of the subgraphs served by npm run subgraph, each at the URL given (SUBGRAPH_URLS stands
for --urls), and writes it to --out (default ${DEFAULT_OUT}) for Apollo Router or Hive Gateway.
Guide: docs/operators.md#federation-under-a-router\n`;
exitWithHelpIfAsked(process.argv.slice(2), usage);
// Loaded after --help is answered: the subgraphs take seconds to load.
const { buildAllSubgraphs } = await import('../../subgraphs/index.js');
const { composeSupergraph, parseSubgraphUrls, SubgraphUrlsError } = await import('../gateway/compose-supergraph.js');
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
  urls = parseSubgraphUrls(raw, SUBGRAPH_NAMES);
} catch (err) {
  if (!(err instanceof SubgraphUrlsError)) throw err;
  process.stderr.write(`${err.message}\n${usage}`);
  process.exit(2);
}
const out = resolve(values.out ?? DEFAULT_OUT);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${composeSupergraph(await buildAllSubgraphs(), urls).trimEnd()}\n`);
process.stdout.write(`wrote ${out} (${[...urls].map(([name, url]) => `${name} at ${url}`).join(', ')})\n`);
