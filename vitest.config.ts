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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files in one worker share the module cache: importing the server (Apollo, viem, x402 …) once per worker instead of
    // once per file took the suite's import time from 196 s to 32 s. No test mocks modules, fakes timers or stubs globals.
    isolate: false,
    // Two files at a time even on a 2-core machine (Vitest's default there is one): most files wait on anvil, child
    // processes and sockets, so the suite takes 7.8 min instead of 10.5 (measured on the CI machine, all green).
    maxWorkers: 2,
    reporters: ['default'],
  },
});
