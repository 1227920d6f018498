import { createRequire } from 'node:module';

/** Node's `process.arch` names → the arch suffix foundry publishes its platform packages under. */
const FOUNDRY_ARCH_NAMES: Partial<Record<NodeJS.Architecture, string>> = { x64: 'amd64', arm64: 'arm64' };

export class AnvilBinaryNotFoundError extends Error {
  override name = 'AnvilBinaryNotFoundError';
}

export type ResolveAnvilBinaryParameters = {
  /** Defaults to `process.platform`. */
  platform?: NodeJS.Platform;
  /** Defaults to `process.arch`. */
  arch?: NodeJS.Architecture;
};

/**
 * Finds the anvil executable inside the installed `@foundry-rs/anvil-<platform>-<arch>` package.
 * @example const anvilPath = resolveAnvilBinary()
 */
export function resolveAnvilBinary({
  platform = process.platform,
  arch = process.arch,
}: ResolveAnvilBinaryParameters = {}): string {
  const foundryArch = FOUNDRY_ARCH_NAMES[arch];
  if (!foundryArch) throw new AnvilBinaryNotFoundError(`anvil is not published for CPU architecture ${arch}`);
  const packageName = `@foundry-rs/anvil-${platform}-${foundryArch}`;
  const executable = platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return createRequire(import.meta.url).resolve(`${packageName}/bin/${executable}`);
  } catch {
    throw new AnvilBinaryNotFoundError(
      `anvil binary not found: install ${packageName} (the project lists the linux-amd64 build; add your platform's)`,
    );
  }
}
