import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * A fresh process that imports a subgraph's resolver modules in another order than the server does (as a test worker
 * that ran another file first would) prints the same SDL: type-graphql's decoration order does not leak into schema/.
 */
describe('a subgraph SDL does not depend on which of its resolver modules was imported first', () => {
  for (const [subgraph, modules] of [
    ['chain', ['resolvers.js', 'utility-resolvers.js']],
    ['defi', ['resolvers.js', 'event-resolvers.js']],
  ] as const) {
    it(`${subgraph}: ${modules.join(' before ')} still prints schema/${subgraph}.graphql`, () => {
      const script = [
        "import 'reflect-metadata';",
        ...modules.map((m) => `await import(${JSON.stringify(join(root, 'dist', 'subgraphs', subgraph, m))});`),
        `const { buildSubgraph } = await import(${JSON.stringify(join(root, 'dist', 'subgraphs', 'shared', 'build-subgraph.js'))});`,
        `const { ${subgraph}Subgraph: mod } = await import(${JSON.stringify(join(root, 'dist', 'subgraphs', subgraph, 'index.js'))});`,
        'process.stdout.write((await buildSubgraph(mod)).sdl);',
      ].join('\n');
      const sdl = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(sdl).toBe(readFileSync(join(root, 'schema', `${subgraph}.graphql`), 'utf8'));
    });
  }
});
