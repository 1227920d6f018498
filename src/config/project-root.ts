import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The project's root folder (the nearest one holding a package.json above this file), the same whether the code
 * runs from `src/` (vitest) or from `dist/src/` (after tsc): checked-in schema/, generated/ and test/fixtures/ live there.
 * @example join(projectRoot(), 'schema', 'supergraph.graphql')
 */
export function projectRoot(): string {
  if (cached !== undefined) return cached;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return (cached = dir);
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${start}`);
  }
}
