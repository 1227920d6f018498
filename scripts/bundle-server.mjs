#!/usr/bin/env node
// Bundles the built server (dist/src/server/main.js, from tsc) into dist/bundle/main.mjs, which `npm start` runs, and
// one subgraph served alone (dist/src/server/serve-subgraph.js) into dist/bundle/subgraph.mjs, which `npm run subgraph`
// runs. Loading ~2,800 modules one by one was about half of every start; one bundle (tree-shaken, split at the dynamic
// imports so a busy port or --help is answered before the rest loads) starts in about half the CPU time.
// Run by `npm run build` after tsc and, when dist/ is stale, by vitest's global setup. Exits 1 on any warning but
// the expected ones below.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(projectRoot, 'dist', 'bundle');

/** Loaded from node_modules at run time: a native addon, and type-graphql's optional validator (validation is off). */
const EXTERNAL = ['better-sqlite3', 'class-validator'];

const startedAt = performance.now();
const problems = [];
rmSync(outDir, { recursive: true, force: true });
await build({
  input: {
    main: join(projectRoot, 'dist', 'src', 'server', 'main.js'),
    subgraph: join(projectRoot, 'dist', 'src', 'server', 'serve-subgraph.js'),
  },
  platform: 'node',
  external: (id) => id.startsWith('node:') || EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
  onLog(level, log) {
    if (level === 'warn') problems.push(log.message);
  },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].mjs',
    chunkFileNames: '[name]-[hash].mjs',
    sourcemap: true,
    // CommonJS packages inside an ES module bundle still call require() (node built-ins, optional peers).
    banner:
      "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
});
if (problems.length > 0) {
  process.stderr.write(`bundling the server warned:\n${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`bundled the server into dist/bundle in ${Math.round(performance.now() - startedAt)} ms\n`);
