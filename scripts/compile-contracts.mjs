#!/usr/bin/env node
// Compiles every contracts/**/*.sol with the solc-js compiler bundled in node_modules (no download, works offline)
// and writes generated/contracts/<ContractName>.json = { abi, bytecode, deployedBytecode } for each contract.
// Run by `npm run build` and, when the artifacts are missing or stale, by vitest's global setup.
// Exits 1 with the compiler's messages on any error.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

// 'paris' (no PUSH0) runs on anvil's default hardfork and on every EVM chain still behind Shanghai.
const EVM_VERSION = 'paris';
const OPTIMIZER_RUNS = 200;

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(projectRoot, 'contracts');
const outputDir = join(projectRoot, 'generated', 'contracts');
const requireFromProject = createRequire(join(projectRoot, 'package.json'));

const startedAt = performance.now();

const sourceFiles = existsSync(contractsDir)
  ? readdirSync(contractsDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.sol'))
      .map((file) => join(contractsDir, file))
      .sort()
  : [];
if (sourceFiles.length === 0) fail(`no .sol files under ${relative(process.cwd(), contractsDir) || '.'}`);

/** Source unit names are project-relative with forward slashes, e.g. "contracts/Multicall3.sol". */
const unitName = (file) => relative(projectRoot, file).split(sep).join('/');

const input = {
  language: 'Solidity',
  sources: Object.fromEntries(sourceFiles.map((file) => [unitName(file), { content: readFileSync(file, 'utf8') }])),
  settings: {
    evmVersion: EVM_VERSION,
    optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  },
};

/** Resolves imports: project files by their unit name, anything else (e.g. "@scope/pkg/X.sol") from node_modules. */
function findImports(path) {
  const inProject = resolve(projectRoot, path);
  if (inProject.startsWith(projectRoot + sep) && existsSync(inProject))
    return { contents: readFileSync(inProject, 'utf8') };
  try {
    return { contents: readFileSync(requireFromProject.resolve(path), 'utf8') };
  } catch {
    return { error: `import not found: ${path} (looked in the project and in node_modules)` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));

const messages = output.errors ?? [];
for (const message of messages.filter((m) => m.severity !== 'error')) {
  process.stderr.write(message.formattedMessage ?? `${message.severity}: ${message.message}\n`);
}
const errors = messages.filter((m) => m.severity === 'error');
if (errors.length > 0) {
  fail(`solc ${solc.version()} failed:\n${errors.map((m) => m.formattedMessage ?? m.message).join('\n')}`);
}

const artifacts = new Map();
for (const [source, contracts] of Object.entries(output.contracts ?? {})) {
  for (const [name, contract] of Object.entries(contracts)) {
    // Artifacts are found by contract name alone, so two contracts may not share one.
    if (artifacts.has(name)) fail(`contract name ${name} is used in both ${artifacts.get(name).source} and ${source}`);
    const bytecode = `0x${contract.evm.bytecode.object}`;
    const deployedBytecode = `0x${contract.evm.deployedBytecode.object}`;
    // Unlinked library placeholders ("__$…$__") would not be valid hex for viem.
    if (bytecode.includes('__$')) fail(`${source}:${name} needs library linking, which this build does not do`);
    artifacts.set(name, { source, artifact: { abi: contract.abi, bytecode, deployedBytecode } });
  }
}

mkdirSync(outputDir, { recursive: true });
for (const [name, { artifact }] of artifacts) {
  // Write then rename, so a reader (e.g. a test run starting now) never sees half a file.
  const target = join(outputDir, `${name}.json`);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(artifact, null, 2)}\n`);
  renameSync(temporary, target);
}
// Drop artifacts of contracts that no longer exist.
for (const file of readdirSync(outputDir)) {
  if (file.endsWith('.json') && !artifacts.has(file.slice(0, -'.json'.length))) rmSync(join(outputDir, file));
}

const ms = Math.round(performance.now() - startedAt);
console.log(
  `compiled ${artifacts.size} contract(s) from ${sourceFiles.length} file(s) with solc ${solc.version()} ` +
    `(evm ${EVM_VERSION}) into ${relative(process.cwd(), outputDir) || '.'} in ${ms} ms`,
);

function fail(message) {
  process.stderr.write(`compile-contracts: ${message}\n`);
  process.exit(1);
}
