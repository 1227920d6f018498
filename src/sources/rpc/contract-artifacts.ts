import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Abi, type Hex, isHex } from 'viem';
import { projectRoot } from '../../config/project-root.js';

/** A compiled contract of ours, as scripts/compile-contracts.mjs writes it. */
export type ContractArtifact = {
  abi: Abi;
  /** Creation code: constructor plus runtime code; deploy it with a transaction. */
  bytecode: Hex;
  /** Runtime code: what lives at the address; place it with `anvil_setCode`. */
  deployedBytecode: Hex;
};

export type LoadContractArtifactOptions = {
  /** Where the artifacts are; defaults to `<project root>/generated/contracts`. */
  artifactsDir?: string;
};

export class ContractArtifactNotFoundError extends Error {
  override name = 'ContractArtifactNotFoundError';
}

export class InvalidContractArtifactError extends Error {
  override name = 'InvalidContractArtifactError';
}

const CONTRACT_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const loaded = new Map<string, ContractArtifact>();

/**
 * Reads the compiled artifact of one of our contracts (contracts/<Name>.sol, compiled by `npm run build`).
 * @example
 * const { abi, deployedBytecode } = loadContractArtifact('Multicall3')
 * await testClient.setCode({ address, bytecode: deployedBytecode })
 */
export function loadContractArtifact(
  name: string,
  { artifactsDir }: LoadContractArtifactOptions = {},
): ContractArtifact {
  if (!CONTRACT_NAME.test(name)) throw new InvalidContractArtifactError(`"${name}" is not a contract name`);
  const file = join(artifactsDir ?? defaultArtifactsDir(), `${name}.json`);
  const cached = loaded.get(file);
  if (cached) return cached;

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new ContractArtifactNotFoundError(
      `no compiled artifact for contract ${name} at ${file}; run \`npm run build\` to compile contracts/*.sol`,
    );
  }
  const artifact = parseArtifact(name, file, text);
  loaded.set(file, artifact);
  return artifact;
}

function parseArtifact(name: string, file: string, text: string): ContractArtifact {
  const invalid = (why: string) =>
    new InvalidContractArtifactError(`artifact of ${name} at ${file} ${why}; run \`npm run build\``);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('is not JSON');
  }
  const { abi, bytecode, deployedBytecode } = (value ?? {}) as Partial<Record<keyof ContractArtifact, unknown>>;
  if (!Array.isArray(abi)) throw invalid('has no abi array');
  if (typeof bytecode !== 'string' || !isHex(bytecode, { strict: true })) throw invalid('has no hex bytecode');
  if (typeof deployedBytecode !== 'string' || !isHex(deployedBytecode, { strict: true })) {
    throw invalid('has no hex deployedBytecode');
  }
  return { abi: abi as Abi, bytecode, deployedBytecode };
}

/** `<project root>/generated/contracts`, the same from src/ (vitest) and from dist/src/ (after tsc). */
function defaultArtifactsDir(): string {
  return join(projectRoot(), 'generated', 'contracts');
}
