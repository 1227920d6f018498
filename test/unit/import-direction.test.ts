import { describe, expect, it } from 'vitest';
import { forbiddenBy, LAYERS, PACKAGE_RULES, SUBGRAPH_TYPES } from '../../src/server/layer-map.js';
import {
  describeImports,
  importCycles,
  type ProjectImport,
  packageImports,
  projectFiles,
  projectImports,
  unresolvedImports,
} from '../helpers/import-graph.js';

/** A subgraph's types.ts is its own layer (src/server/layer-map.ts). */
const isSubgraphTypes = (file: string) => /^subgraphs\/[^/]+\/types\.ts$/.test(file);

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

/** Package imports by a folder that the package's rule does not name, each with the rule's reason. */
function forbiddenPackages(all: readonly { from: string; to: string }[]): string[] {
  return all.flatMap(({ from, to }) => {
    const own = folderOf(from);
    // A subgraph's own folder stands in the map as `subgraphs/*`.
    const folder = own !== undefined && !LISTED.includes(own) ? `${own.split('/')[0]}/*` : own;
    const rule = PACKAGE_RULES.find((r) => r.packages.some((name) => forbiddenBy(to, name)));
    return rule && (folder === undefined || !rule.onlyIn.includes(folder)) ? [`${from} → ${to} (${rule.because})`] : [];
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

  it('has no layer importing a package its rules forbid (no store driver above the store, no fastify below HTTP …)', () => {
    expect(forbiddenPackages(packageImports(files))).toEqual([]);
  });

  it('would refuse the store driver in access, fastify in a subgraph and the tracer SDK in HTTP wiring', () => {
    const wrongWay = [
      { from: 'src/access/access-gate.ts', to: 'ioredis' },
      { from: 'subgraphs/ens/resolvers.ts', to: '@fastify/cors' },
      { from: 'src/http/app.ts', to: '@opentelemetry/sdk-trace-node' },
    ];
    expect(forbiddenPackages(wrongWay)).toHaveLength(3);
    expect(forbiddenPackages([{ from: 'src/store/redis-client.ts', to: 'ioredis' }])).toEqual([]);
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
