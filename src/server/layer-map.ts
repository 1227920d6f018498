/**
 * The layers of the code, top first: the one map of DESIGN.md "Imports run one way". A file may import files of its
 * own folder and of any folder in a LOWER layer; folders of one layer never import each other (so no subgraph imports
 * another). `subgraphs/*` makes each subgraph folder its own module; a folder is the longest listed prefix of a file's
 * path. `test/unit/import-direction.test.ts` holds the code to it, and `npm run docs:write` draws it into
 * docs/architecture.md.
 */
export interface Layer {
  /** What the layer holds, in one line. */
  holds: string;
  folders: readonly string[];
}

/** Packages that only some folders may import (a name, or a prefix ending in `*`), and why. */
export interface PackageRule {
  packages: readonly string[];
  onlyIn: readonly string[];
  because: string;
}

/** A subgraph's types.ts: its own layer, below the services that return its classes; it imports nothing of ours. */
export const SUBGRAPH_TYPES = 'subgraphs/*/types.ts';

const SUBGRAPH_FOLDERS = ['subgraphs/index.ts', 'subgraphs/*', 'subgraphs/shared', SUBGRAPH_TYPES];

export const LAYERS: readonly Layer[] = [
  {
    holds: 'check tooling: `npm run sources:check` holds the live upstreams to their vendors’ contracts',
    folders: ['checks'],
  },
  { holds: 'reads config once; starts the store, the embedded default and HTTP', folders: ['src/server'] },
  {
    holds: 'anvil chain and its seed, replay of recorded replies, local x402 facilitator: only the server starts them',
    folders: ['src/embedded'],
  },
  {
    holds: 'fastify: REST routes, /graphql, /api/batch, /mcp (http/mcp/), CCIP, their metrics and spans',
    folders: ['src/http'],
  },
  { holds: 'caller (IP, SIWE session, API key, x402), tier, quotas, credits', folders: ['src/access'] },
  { holds: 'route table: one row per path → one GraphQL operation; OpenAPI, docs', folders: ['rest-compat'] },
  { holds: 'composes the subgraphs and runs operations in process', folders: ['src/gateway'] },
  { holds: 'the list of subgraphs', folders: ['subgraphs/index.ts'] },
  {
    holds: 'resolvers → loaders (one DataLoader per request); never another subgraph: they meet through entity keys',
    folders: ['subgraphs/*'],
  },
  { holds: 'services the subgraph context carries', folders: ['src/ccip', 'src/webhooks'] },
  { holds: 'the request context and the service interfaces', folders: ['subgraphs/shared'] },
  {
    holds: 'the GraphQL classes: the one declaration of each response shape, which the services below fill',
    folders: [SUBGRAPH_TYPES],
  },
  { holds: 'argument rules shared by rows and resolvers', folders: ['src/arguments'] },
  {
    holds: 'one client per upstream (timeout, retry, breaker, cache); SQLite/Redis',
    folders: ['src/sources', 'src/store'],
  },
  { holds: 'the tallies /metrics reads on scrape, span hooks, the tracer', folders: ['src/observability'] },
  {
    holds: 'config, errors, logging, bounded memos',
    folders: ['src/config', 'src/errors', 'src/logging', 'src/memo'],
  },
];

/** The packages that belong to one layer or a few: every other folder of the map is forbidden them. */
export const PACKAGE_RULES: readonly PackageRule[] = [
  {
    packages: ['fastify', '@fastify/*', '@apollo/server', '@modelcontextprotocol/sdk'],
    onlyIn: ['src/server', 'src/http'],
    because: 'HTTP is served by the HTTP wiring, which the server starts',
  },
  {
    packages: ['better-sqlite3', 'ioredis'],
    onlyIn: ['src/store'],
    because: 'state goes through the Store interface',
  },
  {
    packages: ['type-graphql', '@apollo/subgraph', '@apollo/composition', '@apollo/gateway', 'dataloader'],
    onlyIn: ['src/server', 'rest-compat', 'src/gateway', ...SUBGRAPH_FOLDERS],
    because: 'the subgraphs declare the schema, the gateway composes it',
  },
  {
    packages: ['graphql'],
    onlyIn: ['src/server', 'src/http', 'rest-compat', 'src/gateway', ...SUBGRAPH_FOLDERS],
    because: 'what serves no GraphQL does not speak it',
  },
  {
    packages: ['@opentelemetry/sdk-*', '@opentelemetry/exporter-*', '@opentelemetry/resources'],
    onlyIn: ['src/server', 'src/observability'],
    because: 'the tracer is set up once, in observability',
  },
  { packages: ['cockatiel'], onlyIn: ['src/sources'], because: 'timeouts, retries and breakers live in the sources' },
];

/**
 * Whether a package rule names an import specifier: `@fastify/*` names `@fastify/cors`, `fastify` names
 * `fastify/types/…`.
 * @example forbiddenBy('@fastify/cors', '@fastify/*') // true
 */
export function forbiddenBy(specifier: string, rule: string): boolean {
  if (rule.endsWith('*')) return specifier.startsWith(rule.slice(0, -1));
  return specifier === rule || specifier.startsWith(`${rule}/`);
}

/**
 * The map as docs/architecture.md shows it: one line per layer, its folders, then what it holds, wrapped at
 * `columns` under itself.
 * @example layerMapText().split('\n')[0] // '↓ checks …'
 */
export function layerMapText(layers: readonly Layer[] = LAYERS, columns = 118): string {
  const width = Math.max(...layers.map((l) => l.folders.join('  ').length)) + 2;
  const wrap = (text: string): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      if (line !== '' && width + 2 + line.length + 1 + word.length > columns) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    return [...lines, line];
  };
  return layers
    .flatMap((l) =>
      wrap(l.holds).map((text, i) => `${i === 0 ? `↓ ${l.folders.join('  ')}` : ''}`.padEnd(width + 2) + text),
    )
    .join('\n');
}
