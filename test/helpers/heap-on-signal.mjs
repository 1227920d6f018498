// Preloaded into a server process (`node --expose-gc --import <this> main.mjs`): on SIGUSR2 it collects garbage and
// prints `heap-used <bytes>`, so a test can read the server's live heap from outside without an endpoint for it.
process.on('SIGUSR2', () => {
  for (let i = 0; i < 3; i++) globalThis.gc();
  process.stdout.write(`heap-used ${process.memoryUsage().heapUsed}\n`);
});
