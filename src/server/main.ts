import { setFlagsFromString } from 'node:v8';

// `npm start`. V8's allocation-site pretenuring learns at start-up, while the schema is composed and the contracts are
// loaded, that objects from many shared allocation sites live long; it then allocates the per-request objects of
// those sites straight into the old generation, so under load the old space grows by megabytes per scavenge and
// mark-compacts follow. Turned off before anything else is loaded: measured on GET /api/price/ETH, 10.5k → 16k
// req/s, scavenges 8 ms → 1 ms, a flat heap (npm run bench; README "Benchmark").
setFlagsFromString('--no-allocation-site-pretenuring');
await import('./start-server.js');
