import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const compileScript = join(projectRoot, 'scripts', 'compile-contracts.mjs');
const contractsDir = join(projectRoot, 'contracts');
const artifactsDir = join(projectRoot, 'generated', 'contracts');

/**
 * Tests run from source without `npm run build`, so compile contracts/*.sol here when generated/contracts is
 * missing or older than a contract source or the compile script.
 */
export function setup(): void {
  if (!artifactsAreStale()) return;
  // Inherit stdio: the compiler's messages reach the terminal, and a failure stops the run before any test.
  execFileSync(process.execPath, [compileScript], { cwd: projectRoot, stdio: 'inherit' });
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
