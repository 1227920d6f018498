import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { writeStaleChainSnapshots } from '../src/embedded/chain/chain-snapshot.js';
import { EMBEDDED_CHAIN_PLANS } from '../src/embedded/chain/embedded-chain-plans.js';
import { deleteKeysUnder, TEST_REDIS_URL } from './helpers/test-redis.js';

const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const compileScript = join(projectRoot, 'scripts', 'compile-contracts.mjs');
const contractsDir = join(projectRoot, 'contracts');
const artifactsDir = join(projectRoot, 'generated', 'contracts');
const tscScript = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const bundleScript = join(projectRoot, 'scripts', 'bundle-server.mjs');
/**
 * What tsconfig.build.json compiles (then bundled), and what every build writes last: the start (main.mjs, the server
 * body it runs and that body's code cache) and the subgraph.
 */
const BUILD_INPUTS = ['src', 'subgraphs', 'rest-compat', 'checks', 'test/bench', 'test/helpers', 'examples'];
const BUILT_ENTRIES = ['main.mjs', 'server.cjs', 'server.cjs.v8-cache', join('subgraph', 'subgraph.mjs')].map((file) =>
  join(projectRoot, 'dist', 'bundle', file),
);

/**
 * Tests run from source without `npm run build`, so do here what the build does when its output is missing or stale:
 * compile contracts/*.sol into generated/contracts, seed each embedded chain once into generated/chain-state (every
 * test server loads that snapshot instead of seeding), and compile dist/ for the tests that run `npm start` itself.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every Redis key of this run lives under one prefix, removed at the end (runs side by side keep their own).
  const redisRunPrefix = `test:${randomUUID()}:`;
  project.provide('redisRunPrefix', redisRunPrefix);
  if (artifactsAreStale()) {
    // Inherit stdio: the compiler's messages reach the terminal, and a failure stops the run before any test.
    execFileSync(process.execPath, [compileScript], { cwd: projectRoot, stdio: 'inherit' });
  }
  await writeStaleChainSnapshots(Object.values(EMBEDDED_CHAIN_PLANS));
  if (distIsStale()) {
    execFileSync(process.execPath, [tscScript, '-p', 'tsconfig.build.json'], { cwd: projectRoot, stdio: 'inherit' });
    execFileSync(process.execPath, [bundleScript], { cwd: projectRoot, stdio: 'inherit' });
  }
  return async () => {
    await deleteKeysUnder(TEST_REDIS_URL, redisRunPrefix).catch((err: Error) => {
      process.stderr.write(
        `could not remove this run's keys (${redisRunPrefix}*) from ${TEST_REDIS_URL}: ${err.message}\n`,
      );
    });
  };
}

function artifactsAreStale(): boolean {
  if (!existsSync(artifactsDir)) return true;
  const artifacts = readdirSync(artifactsDir).filter((file) => file.endsWith('.json'));
  if (artifacts.length === 0) return true;
  const oldestArtifact = Math.min(...artifacts.map((file) => statSync(join(artifactsDir, file)).mtimeMs));
  const inputs = [
    compileScript,
    ...readdirSync(contractsDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.sol'))
      .map((file) => join(contractsDir, file)),
  ];
  return inputs.some((file) => statSync(file).mtimeMs > oldestArtifact);
}

/** dist/ is missing, or a TypeScript source of the build is newer than it (an edit since the last `npm run build`). */
function distIsStale(): boolean {
  if (!BUILT_ENTRIES.every((entry) => existsSync(entry))) return true;
  const builtAt = Math.min(...BUILT_ENTRIES.map((entry) => statSync(entry).mtimeMs));
  return BUILD_INPUTS.some((dir) =>
    readdirSync(join(projectRoot, dir), { recursive: true, encoding: 'utf8' }).some(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        // The typed client's own build (generated types, its dist) is not part of the project's.
        !file.startsWith('typed-client/') &&
        statSync(join(projectRoot, dir, file)).mtimeMs > builtAt,
    ),
  );
}
