import { exitWithHelpIfAsked } from '../../src/server/cli-help.js';

// `npm run bench`: answers --help before the benchmark's modules load, then runs it (run-bench.ts).
exitWithHelpIfAsked(
  process.argv.slice(2),
  `usage: npm run bench [-- <route filter> | federation | cluster]

Starts the built server and, per route of test/bench/bench-routes.ts whose name contains the filter, bare fastify
servers answering the same bytes; autocannon drives them in alternating rounds and prints req/s and ratios. Without a
filter (or with "federation") it then compares /graphql with Hive Gateway and @apollo/gateway over the subgraphs.
BENCH_DURATION, BENCH_ROUNDS, BENCH_WARMUP, BENCH_CONNECTIONS tune it. "cluster" instead starts a 3-master Redis
Cluster and 1, 2, 4 instances on it (cluster-bench.ts). Guide: docs/architecture.md#benchmark`,
);
if (process.argv[2] === 'cluster') await (await import('./cluster-bench.js')).runClusterBench();
else await import('./run-bench.js');
