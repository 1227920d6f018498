import { exitWithHelpIfAsked } from '../../src/server/cli-help.js';

// `npm run bench`: answers --help before the benchmark's modules load, then runs it (run-bench.ts).
exitWithHelpIfAsked(
  process.argv.slice(2),
  `usage: npm run bench [-- [--rounds N] [--seconds S] [--warmup S] [--connections N] [<route filter> … | federation] | startup | cluster | live]

Starts the built server and, per route of test/bench/bench-routes.ts whose name contains one of the filters (any case), its baselines
(bare fastify or node:http answering the same bytes, or the same row's REST path); autocannon drives them in rounds
with the order rotated each round, and prints req/s, CPU per request (read once each side has drained) and each
round's ratio as median (min–max), with the load average of every round. Without a filter (or with "federation") it
then compares /graphql with Hive Gateway and @apollo/gateway over the subgraphs: saturated rounds, then /graphql and Hive
Gateway at one equal rate (BENCH_FEDERATION_RATE, default half the slower one's req/s, at most 1,000), rounds started at
load ≤ 2, on which the goal is judged.
--rounds (default 5), --seconds per side per round (10), --warmup seconds (3), --connections (50). "cluster" instead
starts a 3-master Redis Cluster and 1, 2, 4 instances on it and prints Redis round trips per counted call (cluster-bench.ts;
BENCH_DURATION, BENCH_CONNECTIONS, BENCH_INSTANCES=1,2,4). "startup" times npm start and node dist/bundle/main.mjs to a
200 from /api/health, in turn (BENCH_STARTUP_RUNS, 5 each; BENCH_SUITE=0 skips the test suite's wall time), and
the first request of each surface 2 s after ready.
A side that fails is marked and sits out the later rounds; every finished result is printed and written, also on
Ctrl-C or SIGTERM, and every process the bench started is stopped on any exit.
"live" opens 1,000 subscriptions over SSE, reads the memory per subscription, then times npm run demo -- eth from block to
delivery, p50/p99 (live-bench.ts; BENCH_SUBSCRIPTIONS, BENCH_TRANSFERS, BENCH_POLL_MS).
Guide: docs/architecture.md#benchmark`,
);
if (process.argv[2] === 'cluster') await (await import('./cluster-bench.js')).runClusterBench();
else if (process.argv[2] === 'live') {
  const { printLiveBench, runLiveBench } = await import('./live-bench.js');
  printLiveBench(await runLiveBench(), (text) => process.stdout.write(text));
} else await import('./run-bench.js');
