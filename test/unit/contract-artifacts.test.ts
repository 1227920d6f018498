import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isHex, size } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  ContractArtifactNotFoundError,
  InvalidContractArtifactError,
  loadContractArtifact,
} from '../../src/sources/rpc/contract-artifacts.js';

describe('contract artifacts', () => {
  it('are found under <project root>/generated/contracts, with abi, creation code and runtime code', () => {
    const artifact = loadContractArtifact('Multicall3');
    expect(artifact.abi.some((item) => item.type === 'function' && item.name === 'aggregate3')).toBe(true);
    expect(isHex(artifact.bytecode, { strict: true }) && size(artifact.bytecode)).toBeGreaterThan(
      size(artifact.deployedBytecode),
    );
    expect(size(artifact.deployedBytecode)).toBeGreaterThan(0);
  });

  it('a missing artifact says to run npm run build', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'artifacts-'));
    expect(() => loadContractArtifact('Multicall3', { artifactsDir: emptyDir })).toThrow(ContractArtifactNotFoundError);
    expect(() => loadContractArtifact('Multicall3', { artifactsDir: emptyDir })).toThrow(/run `npm run build`/);
  });

  it('refuses names that are not contract names and artifacts without hex code', async () => {
    expect(() => loadContractArtifact('../package')).toThrow(InvalidContractArtifactError);
    const dir = await mkdtemp(join(tmpdir(), 'artifacts-'));
    await writeFile(join(dir, 'Broken.json'), JSON.stringify({ abi: [], bytecode: 'not hex', deployedBytecode: '0x' }));
    expect(() => loadContractArtifact('Broken', { artifactsDir: dir })).toThrow(/Broken .* has no hex bytecode/);
  });
});
