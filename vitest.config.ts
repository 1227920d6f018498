import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Apollo's packages are CommonJS and require graphql's CJS entry; ours must load the same copy.
    alias: { graphql: require.resolve('graphql/index.js') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Compiles contracts/*.sol into generated/contracts when missing or stale (tests run without a build).
    globalSetup: ['test/global-setup.ts'],
    // Hang guards, not speed targets (those are the bench's, `npm run bench`): on a shared 2-core machine at load 10+,
    // a test that starts processes or sends 1,000 calls takes several times what it takes on a quiet one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Files in one worker share the module cache: importing the server (Apollo, viem, x402 …) once per worker instead of
    // once per file took the suite's import time from 196 s to 32 s. No test mocks modules, fakes timers or stubs globals.
    isolate: false,
    // Two files at a time even on a 2-core machine (Vitest's default there is one): most files wait on anvil, child
    // processes and sockets, so two overlap well (the suite's wall time: `npm run bench -- startup`).
    maxWorkers: 2,
    reporters: ['default'],
  },
});
