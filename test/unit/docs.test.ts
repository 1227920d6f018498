import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { CONFIG_VARIABLES } from '../../src/config/config.js';
import { DEMO_ACTION_LIST, DEMO_COMMANDS } from '../../src/embedded/demo-action-list.js';
import { STATUS_OF_CODE } from '../../src/errors/api-error.js';
import { parseSubgraphUrls } from '../../src/gateway/compose-supergraph.js';
import { markedBlocks, renderDocBlocks } from '../../src/server/docs-blocks.js';
import { SUBGRAPH_NAMES } from '../../subgraphs/subgraph-names.js';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const filesUnder = (dir: string, ext: RegExp) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => ext.test(file))
    .map((file) => join(dir, file));

/** README.md and every document of docs/, by path from the root. */
const DOCUMENTS = ['README.md', ...filesUnder('docs', /\.md$/)];
const GUIDES = ['graphql', 'rest', 'ens-ccip', 'agents', 'webhooks', 'operators'].map((g) => `docs/${g}.md`);

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors a markdown document has: its headings' slugs (repeats numbered as GitHub numbers them). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  // Headings outside fenced code blocks only.
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '');
  for (const [, heading] of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    anchors.add(n === 0 ? base : `${base}-${n}`);
    seen.set(base, n + 1);
  }
  return anchors;
}

/** A markdown table's rows (after the header), each as its cells. */
function tableRows(text: string, header: RegExp): string[][] {
  const start = text.search(header);
  expect(start, String(header)).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const rows: string[][] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('the docs are code: generated, included, linked, and true to the code', () => {
  it('every document is what `npm run docs:write` makes of it: generated tables and included examples are current', () => {
    const stale = DOCUMENTS.filter((path) => renderDocBlocks(read(path)) !== read(path));
    expect(stale, 'run npm run docs:write').toEqual([]);
    expect(markedBlocks(read('docs/rest.md'))).toContain('generated: route-table');
    expect(markedBlocks(read('docs/agents.md'))).toContain('generated: mcp-tools');
  });

  it('every example of examples/ is included whole into a guide', () => {
    const included = new Set(DOCUMENTS.flatMap((path) => markedBlocks(read(path))));
    // Not what the typed client's generator and tsc write there (git ignores both).
    const examples = filesUnder('examples', /\/.+\.\w+$/).filter(
      (f) => !/^examples\/typed-client\/(generated|dist)\//.test(f),
    );
    expect(examples.length).toBeGreaterThan(15);
    expect(examples.filter((file) => !included.has(`include: ${file}`))).toEqual([]);
  });

  it('the README is a front page: under 150 lines, the two commands, a way in for each kind of user, links to every guide', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    for (const guide of GUIDES) expect(readme, guide).toContain(`](${guide})`);
    // The commands it shows name examples, demo actions and paths that exist.
    for (const [, name] of readme.matchAll(/npm run example -- (\S+)/g)) {
      expect(existsSync(join(root, 'examples', `${name}.ts`)), name).toBe(true);
    }
    const actions = [...DEMO_ACTION_LIST.map((a) => a.name), ...DEMO_COMMANDS.map((c) => c.name), '--help'];
    for (const [, action] of readme.matchAll(/npm run demo -- (\S+)/g)) expect(actions, action).toContain(action);
    for (const [, path] of readme.matchAll(/(?<![\w/])(examples\/[\w/.-]+\.\w+)/g)) {
      expect(existsSync(join(root, path!)), path).toBe(true);
    }
    const paths = new Set(ROUTE_TABLE.rows.map((row) => row.path));
    for (const [, path] of readme.matchAll(/curl -sS http:\/\/127\.0\.0\.1:3000(\/\S+)/g))
      expect(paths, path).toContain(path);
  });

  it('every relative link of the docs leads to a file, and every #anchor to a heading there', () => {
    const broken: string[] = [];
    for (const path of DOCUMENTS) {
      const prose = read(path).replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#');
        const resolved = file ? normalize(join(dirname(path), file)) : path;
        if (!existsSync(join(root, resolved))) broken.push(`${path}: ${target} (no ${resolved})`);
        else if (anchor && !anchorsOf(read(resolved)).has(anchor)) broken.push(`${path}: ${target} (no #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the code cites the API contract by anchors that exist, and no longer an absent SPEC.md', () => {
    const sources = ['src', 'subgraphs', 'rest-compat', 'test', 'examples', 'scripts', 'tools'].flatMap((dir) =>
      existsSync(join(root, dir))
        ? filesUnder(dir, /\.(ts|mjs)$/).filter((file) => !file.includes('node_modules') && !file.includes('fixtures'))
        : [],
    );
    const citations: string[] = [];
    const broken: string[] = [];
    const spec: string[] = [];
    for (const file of sources) {
      const text = read(file);
      for (const [, doc, anchor] of text.matchAll(/docs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        citations.push(`${doc}#${anchor}`);
        if (!existsSync(join(root, 'docs', doc!))) broken.push(`${file}: docs/${doc}`);
        else if (anchor && !anchorsOf(read(join('docs', doc!))).has(anchor))
          broken.push(`${file}: docs/${doc}#${anchor}`);
      }
      for (const line of text.split('\n'))
        if (/\bSPEC\b/.test(line) && file !== relative(root, import.meta.filename))
          spec.push(`${file}: ${line.trim()}`);
    }
    expect(citations.filter((c) => c.startsWith('api-contract.md#')).length).toBeGreaterThan(50);
    expect(broken).toEqual([]);
    expect(spec).toEqual([]);
  });

  it('the configuration reference has one row per variable the config reads, and .env.example lists each', () => {
    const envExample = read('.env.example');
    expect(CONFIG_VARIABLES.filter((name) => !new RegExp(`^${name}=`, 'm').test(envExample))).toEqual([]);
    const rows = tableRows(read('docs/configuration.md'), /^\| variable +\| default +\| meaning +\|$/m);
    const documented = rows.flatMap((row) => [...row[0]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!));
    expect(CONFIG_VARIABLES.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it('the errors reference lists every code with the status it is answered with', () => {
    const rows = tableRows(read('docs/errors.md'), /^\| code +\| status +\| when +\|$/m);
    const documented = Object.fromEntries(rows.map((row) => [row[0]!.replace(/`/g, ''), Number(row[1])]));
    expect(documented).toEqual(STATUS_OF_CODE);
  });

  it('the federation commands of the operators guide start every subgraph and give each a URL', () => {
    const guide = read('docs/operators.md');
    const [, loop] = /^for s in ((?:\w+:\d+ ?)+); do$/m.exec(guide) ?? [];
    expect(loop?.split(' ').map((s) => s.split(':')[0])).toEqual([...SUBGRAPH_NAMES]);
    const [, urls] = /^npm run supergraph -- --urls (\S+)$/m.exec(guide) ?? [];
    expect([...parseSubgraphUrls(urls!, SUBGRAPH_NAMES).keys()].sort()).toEqual([...SUBGRAPH_NAMES].sort());
  });
});
