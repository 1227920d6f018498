import { describe, expect, it } from 'vitest';
import {
  describeImports,
  importCycles,
  type ProjectImport,
  projectFiles,
  projectImports,
  unresolvedImports,
} from '../helpers/import-graph.js';

/**
 * The layers of DESIGN.md "Imports run one way", top first. A file may import files of its own folder and of any folder
 * in a LOWER layer; folders of one layer never import each other (so no subgraph imports another). `subgraphs/*`
 * makes each subgraph folder its own module. A folder is the longest listed prefix of a file's path.
 */
/** A subgraph's types.ts: its own layer, below the services that return its classes; it imports nothing of ours. */
const SUBGRAPH_TYPES = 'subgraphs/*/types.ts';
const isSubgraphTypes = (file: string) => /^subgraphs\/[^/]+\/types\.ts$/.test(file);

const LAYERS: readonly { layer: string; folders: readonly string[] }[] = [
  {
    layer: "check tooling: the live upstream checks (npm run sources:check), held to each vendor's documented contract",
    folders: ['checks'],
  },
  { layer: 'server: reads config once, starts and wires everything', folders: ['src/server'] },
  {
    layer:
      'embedded default: local chain and its seed, replay server, local x402 facilitator (only the server starts them)',
    folders: ['src/embedded'],
  },
  { layer: 'HTTP wiring: fastify app, REST routes, /graphql, batch, MCP', folders: ['src/http'] },
  { layer: 'access: caller, tier, limits, credits, x402 payments', folders: ['src/access'] },
  { layer: 'route table: rows, OpenAPI document, docs page', folders: ['rest-compat'] },
  { layer: 'gateway: composes and runs the supergraph', folders: ['src/gateway'] },
  { layer: 'the list of subgraphs', folders: ['subgraphs/index.ts'] },
  { layer: 'subgraphs: types, resolvers, loaders', folders: ['subgraphs/*'] },
  { layer: 'services behind the subgraph context', folders: ['src/ccip', 'src/webhooks'] },
  { layer: 'subgraph context and service interfaces', folders: ['subgraphs/shared'] },
  {
    layer:
      "each subgraph's GraphQL types (its types.ts): the one declaration of every response shape, which the services below the subgraph fill",
    folders: [SUBGRAPH_TYPES],
  },
  { layer: 'argument schemas shared by rows and resolvers', folders: ['src/arguments'] },
  { layer: 'sources and store', folders: ['src/sources', 'src/store'] },
  { layer: 'observability: the tallies /metrics reads, span hooks, the tracer', folders: ['src/observability'] },
  { layer: 'config, errors, logging', folders: ['src/config', 'src/errors', 'src/logging'] },
];

const ROOTS = ['checks', 'src', 'subgraphs', 'rest-compat'];

const LISTED = LAYERS.flatMap(({ folders }) => folders);

/** The folder of the map a file belongs to, e.g. `subgraphs/ens` for subgraphs/ens/resolvers.ts; undefined if none. */
function folderOf(file: string): string | undefined {
  if (isSubgraphTypes(file)) return SUBGRAPH_TYPES;
  const matches = LISTED.map((f) => (f.endsWith('/*') ? file.split('/').slice(0, 2).join('/') : f)).filter(
    (folder) => LISTED.some((f) => f === folder || f === `${folder.split('/')[0]}/*`) && isIn(file, folder),
  );
  return matches.sort((a, b) => b.length - a.length)[0];
}

const isIn = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/** Position of a folder's layer in LAYERS (0 = top): its own entry, else its parent's `/*` entry. */
function layerOf(folder: string): number {
  const exact = LAYERS.findIndex(({ folders }) => folders.includes(folder));
  return exact >= 0 ? exact : LAYERS.findIndex(({ folders }) => folders.includes(`${folder.split('/')[0]}/*`));
}

const files = projectFiles(ROOTS);
const imports = projectImports(files);

/** Imports that leave their folder without going to a lower layer. */
function againstTheDirection(all: readonly ProjectImport[]): ProjectImport[] {
  return all.filter(({ from, to }) => {
    const [a, b] = [folderOf(from), folderOf(to)];
    return a !== b && (a === undefined || b === undefined || layerOf(b) <= layerOf(a));
  });
}

describe('imports run one way (DESIGN.md)', () => {
  it('reads every relative import to a file of the project, so the graph misses none', () => {
    expect(imports.length).toBeGreaterThan(files.length);
    expect(describeImports(unresolvedImports(imports))).toEqual([]);
  });

  it('gives every file under src/, subgraphs/ and rest-compat/ a folder of the layer map', () => {
    expect(files.filter((f) => folderOf(f) === undefined)).toEqual([]);
  });

  it('finds each subgraph folder its own module and a file its longest listed folder', () => {
    expect(folderOf('subgraphs/ens/resolvers.ts')).toBe('subgraphs/ens');
    expect(folderOf('subgraphs/shared/graph-context.ts')).toBe('subgraphs/shared');
    expect(folderOf('subgraphs/index.ts')).toBe('subgraphs/index.ts');
    expect(layerOf('subgraphs/ens')).toBe(layerOf('subgraphs/prices'));
    expect(layerOf('subgraphs/shared')).toBeGreaterThan(layerOf('subgraphs/ens'));
    expect(folderOf('subgraphs/ens/types.ts')).toBe(SUBGRAPH_TYPES);
    expect(layerOf(SUBGRAPH_TYPES)).toBeGreaterThan(layerOf('subgraphs/shared'));
  });

  it('has no import from a folder to a folder of its own or a higher layer', () => {
    expect(describeImports(againstTheDirection(imports))).toEqual([]);
  });

  it('would refuse a source importing the embedded chain, access importing HTTP wiring, and two sibling layers', () => {
    const wrongWay: ProjectImport[] = [
      { from: 'src/sources/rpc/address-kinds.ts', to: 'src/embedded/chain/local-chain.ts' },
      { from: 'src/access/access-gate.ts', to: 'src/http/app.ts' },
      { from: 'src/store/store.ts', to: 'src/sources/sources.ts' },
    ];
    expect(againstTheDirection(wrongWay)).toEqual(wrongWay);
  });

  it('has no subgraph importing another subgraph (they meet only through federation entity keys)', () => {
    // A subgraph's types.ts counts as that subgraph here: no subgraph imports another's types either.
    const subgraph = (file: string) => file.match(/^subgraphs\/(?!shared\/|index\.ts$)[^/]+/)?.[0];
    const across = imports.filter(({ from, to }) => {
      const [a, b] = [subgraph(from), subgraph(to)];
      return a !== undefined && b !== undefined && a !== b;
    });
    expect(describeImports(across)).toEqual([]);
  });

  it('has no import cycle between files (the rule above already leaves none between folders or layers)', () => {
    expect(importCycles(imports)).toEqual([]);
  });
});
