import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStaleChainSnapshots } from '../src/embedded/chain/chain-snapshot.js';
import { EMBEDDED_CHAIN_PLANS } from '../src/embedded/chain/embedded-chain-plans.js';

const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const compileScript = join(projectRoot, 'scripts', 'compile-contracts.mjs');
const contractsDir = join(projectRoot, 'contracts');
const artifactsDir = join(projectRoot, 'generated', 'contracts');

/**
 * Tests run from source without `npm run build`, so do here what the build does when its output is missing or stale:
 * compile contracts/*.sol into generated/contracts, then seed each embedded chain once into generated/chain-state
 * (every test server loads that snapshot instead of seeding).
 */
export async function setup(): Promise<void> {
  if (artifactsAreStale()) {
    // Inherit stdio: the compiler's messages reach the terminal, and a failure stops the run before any test.
    execFileSync(process.execPath, [compileScript], { cwd: projectRoot, stdio: 'inherit' });
  }
  await writeStaleChainSnapshots(Object.values(EMBEDDED_CHAIN_PLANS));
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
