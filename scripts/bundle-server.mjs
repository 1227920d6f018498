#!/usr/bin/env node
// Bundles the built server (dist/src/server/main.js, from tsc) into dist/bundle/main.mjs, which `npm start` runs, and
// one subgraph served alone (dist/src/server/serve-subgraph.js) into dist/bundle/subgraph/subgraph.mjs, which
// `npm run subgraph` runs. Loading ~2,800 modules one by one was about half of every start; one bundle (tree-shaken,
// split at the dynamic imports so a busy port or --help is answered before the rest loads) starts in about half the
// CPU time. What main.mjs runs once no --help was asked (start-server.js and all it imports: configuration, port,
// serving) is one CommonJS script, dist/bundle/server.cjs, which main.mjs compiles with the V8 code cache written here
// after a start of it (scripts/write-code-cache.mjs; src/server/server-body.ts): compiling it was the largest part of
// a start.
// Run by `npm run build` after tsc and the chain snapshots (the code cache's start loads them) and, when dist/ is
// stale, by vitest's global setup. Exits 1 on any warning but the expected ones below.
import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(projectRoot, 'dist', 'bundle');

/** Loaded from node_modules at run time: a native addon, and type-graphql's optional validator (validation is off). */
const EXTERNAL = ['better-sqlite3', 'class-validator'];

const startedAt = performance.now();
const problems = [];
// Values that depend on no configuration, computed now rather than at every start (src/config/public-dev-keys.ts,
// src/server/built-artifacts.ts, src/embedded/chain/seed-steps/deployer-accounts.ts, and the embedded chains' snapshot
// fingerprints in src/embedded/chain/chain-snapshot.ts).
const { derivePublicDevKeys } = await import(
  pathToFileURL(join(projectRoot, 'dist', 'src', 'config', 'public-dev-keys.js')).href
);
await import('reflect-metadata');
const { buildArtifacts } = await import(
  pathToFileURL(join(projectRoot, 'dist', 'src', 'server', 'built-artifacts.js')).href
);
const { deriveDeployerAddresses } = await import(
  pathToFileURL(join(projectRoot, 'dist', 'src', 'embedded', 'chain', 'seed-steps', 'deployer-accounts.js')).href
);
const { snapshotFingerprint } = await import(
  pathToFileURL(join(projectRoot, 'dist', 'src', 'embedded', 'chain', 'chain-snapshot.js')).href
);
const { EMBEDDED_CHAIN_PLANS } = await import(
  pathToFileURL(join(projectRoot, 'dist', 'src', 'embedded', 'chain', 'embedded-chain-plans.js')).href
);
const define = {
  __BUILT_SNAPSHOT_FINGERPRINTS__: JSON.stringify(
    Object.fromEntries(Object.values(EMBEDDED_CHAIN_PLANS).map((plan) => [plan.name, snapshotFingerprint(plan)])),
  ),
  __BUILT_PUBLIC_DEV_KEYS__: JSON.stringify(derivePublicDevKeys()),
  __BUILT_DEPLOYER_ADDRESSES__: JSON.stringify(deriveDeployerAddresses()),
  __BUILT_ARTIFACTS__: JSON.stringify(buildArtifacts()),
};
rmSync(outDir, { recursive: true, force: true });
/**
 * One entry, bundled on its own into `dir`: two entries in one build share chunks whose order of evaluation no longer
 * puts `reflect-metadata` before the decorated classes.
 */
const bundle = (name, entry, dir, output = {}, extraDefine = {}) =>
  build({
    input: { [name]: join(projectRoot, 'dist', 'src', 'server', entry) },
    platform: 'node',
    transform: { define: { ...define, ...extraDefine } },
    external: (id) => id.startsWith('node:') || EXTERNAL.some((pkg) => id === pkg || id.startsWith(`${pkg}/`)),
    onLog(level, log) {
      if (level === 'warn') problems.push(log.message);
    },
    output: {
      dir,
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: '[name]-[hash].mjs',
      sourcemap: true,
      // CommonJS packages inside an ES module bundle still call require() (node built-ins, optional peers).
      banner:
        "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      ...output,
    },
  });
/**
 * The licence comments (`/*! … *\/`) are kept as written, and may name an author in non-ASCII letters: escaped in the
 * comment's text, so that the whole server body is ASCII (read as Latin-1 at start). Anything else non-ASCII is a
 * problem: the bundler was asked to escape it.
 */
function asciiLegalComments(file) {
  const escaped = readFileSync(file, 'utf8').replace(/^[\t ]*\/\*![\s\S]*?\*\//gm, (comment) =>
    comment.replace(/\P{ASCII}/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
  );
  writeFileSync(file, escaped);
  if (!isAscii(Buffer.from(escaped))) problems.push(`${file} holds non-ASCII text outside licence comments`);
}

/** main.mjs finds the server body here (src/server/server-body.ts). */
const SERVER_BODY = 'server.cjs';
await bundle('main', 'main.js', outDir, {}, { __SERVER_BODY_FILE__: JSON.stringify(`./${SERVER_BODY}`) });
// One script (its dynamic imports inlined: evaluated when first imported, as before, but compiled from one cache),
// strict as the ES modules it is made of.
await bundle('server', 'start-server.js', outDir, {
  format: 'cjs',
  entryFileNames: SERVER_BODY,
  codeSplitting: false,
  strict: true,
  banner: undefined,
  // Non-ASCII characters escaped, and JSDoc (where the rest of them were) left out: main.mjs then reads the script as
  // Latin-1, a one-byte string, instead of decoding UTF-8 into a two-byte one of twice the size
  // (src/server/server-body.ts). Stack traces and the source map are unchanged by it.
  charset: 'ascii',
  comments: { legal: true, annotation: true, jsdoc: false },
});
asciiLegalComments(join(outDir, SERVER_BODY));
await bundle('subgraph', 'serve-subgraph.js', join(outDir, 'subgraph'));
if (problems.length > 0) {
  process.stderr.write(`bundling the server warned:\n${problems.join('\n')}\n`);
  process.exit(1);
}
// After a start of the body, in a process of its own with the server's V8 flags: fails the build if it cannot start.
execFileSync(process.execPath, [join(projectRoot, 'scripts', 'write-code-cache.mjs'), join(outDir, SERVER_BODY)], {
  cwd: projectRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.stdout.write(`bundled the server into dist/bundle in ${Math.round(performance.now() - startedAt)} ms\n`);
