import { writeStaleChainSnapshots } from '../embedded/chain/chain-snapshot.js';
import { EMBEDDED_CHAIN_PLANS } from '../embedded/chain/embedded-chain-plans.js';

/**
 * Run by `npm run build` after tsc: seeds each embedded chain once and writes its state to generated/chain-state, so
 * `npm start` loads it in milliseconds instead of seeding on every start. Chains whose snapshot is current are skipped.
 */
const startedAt = performance.now();
try {
  const written = await writeStaleChainSnapshots(Object.values(EMBEDDED_CHAIN_PLANS));
  const ms = Math.round(performance.now() - startedAt);
  process.stdout.write(
    written.length > 0
      ? `wrote embedded chain snapshots: ${written.join(', ')} in ${ms} ms\n`
      : 'embedded chain snapshots are current\n',
  );
} catch (err) {
  process.stderr.write(`could not write the embedded chain snapshots: ${(err as Error).message}\n`);
  process.exit(1);
}
