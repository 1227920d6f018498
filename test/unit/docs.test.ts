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

  it('x402, tier, facilitator and bazaar are explained before they are used: the first mention in a document links to the glossary', () => {
    // Contributor documents and the contract reference are read after the guides; the glossary is the explanation.
    const readers = DOCUMENTS.filter(
      (path) =>
        !['docs/glossary.md', 'docs/api-contract.md', 'docs/architecture.md', 'docs/contributing.md'].includes(path),
    );
    const unexplained: string[] = [];
    for (const path of readers) {
      const text = read(path);
      const glossary = path === 'README.md' ? 'docs/glossary.md' : 'glossary.md';
      // Code, comments, headings and link targets blanked out (same length: positions stay those of the text).
      const prose = text
        .replace(/^```[\s\S]*?^```$/gm, (m) => ' '.repeat(m.length))
        .replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length))
        .replace(/<!--[\s\S]*?-->/g, (m) => ' '.repeat(m.length))
        .replace(/\]\([^)]*\)/g, (m) => `]${' '.repeat(m.length - 1)}`)
        .replace(/^#.*$/gm, (m) => ' '.repeat(m.length));
      for (const term of ['x402', 'tier', 'facilitator', 'bazaar']) {
        const first = prose.search(new RegExp(`\\b${term}s?\\b`, 'i'));
        if (first < 0) continue;
        const link = text.indexOf(`](${glossary}#${term})`);
        // The first mention is the text of the glossary link itself: `[x402](glossary.md#x402)`.
        if (link < 0 || text.lastIndexOf('[', link) > first || link < first) {
          unexplained.push(`${path}:${text.slice(0, first).split('\n').length} ${term}`);
        }
      }
    }
    expect(unexplained).toEqual([]);
    for (const term of ['x402', 'tier', 'facilitator', 'bazaar'])
      expect(anchorsOf(read('docs/glossary.md'))).toContain(term);
  });

  it('the user guides keep internals out (source and test files, Lua): contributing.md says where each promise is tested', () => {
    const guides = [
      'README.md',
      ...GUIDES,
      ...['access', 'embedded-default', 'errors', 'quickstart', 'glossary'].map((g) => `docs/${g}.md`),
    ];
    const internals: string[] = [];
    for (const path of guides.filter((g) => g !== 'docs/operators.md')) {
      // Included examples and generated blocks are code, shown as code.
      const prose = read(path)
        .replace(/<!-- (include|generated): \S+ -->\n[\s\S]*?<!-- \/\1 -->/g, '')
        .replace(/^```[\s\S]*?^```$/gm, '');
      for (const [found] of prose.matchAll(/\b(?:test|src|rest-compat|subgraphs)\/[\w/.-]+|\bLua\b/g)) {
        internals.push(`${path}: ${found}`);
      }
    }
    expect(internals).toEqual([]);
    expect(read('docs/contributing.md')).toContain("### Where the guides' promises are tested");
  });

  it('no snippet meant to be pasted into a terminal starts with set -e (it closes the terminal on the first error): only scripts run as files do', () => {
    const pasted: string[] = [];
    for (const path of DOCUMENTS) {
      // A fenced sh block that is not an included example file (those run as files: `bash file.sh`, `./file.sh`).
      const text = read(path).replace(/<!-- include: \S+ -->\n```[\s\S]*?```\n<!-- \/include -->/g, '');
      for (const [, block] of text.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```$/gm)) {
        if (/^\s*set -[a-z]*e/m.test(block!)) pasted.push(`${path}: ${block!.split('\n')[0]}`);
      }
    }
    expect(pasted).toEqual([]);
    // The example scripts the guides show as first calls are pasted as often as run: set -e only in the operators'
    // and the typed client's scripts, which their guides run as files. Every one has a shebang.
    const scripts = filesUnder('examples', /\.sh$/);
    expect(scripts.filter((file) => !read(file).startsWith('#!/usr/bin/env bash\n'))).toEqual([]);
    expect(scripts.filter((file) => /^set -[a-z]*e/m.test(read(file)))).toEqual([
      'examples/operators/check-instances.sh',
      'examples/typed-client/generate.sh',
    ]);
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
