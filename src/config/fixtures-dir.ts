import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's `test/fixtures`, found from this file whether it runs from `src/` or from `dist/src/`.
 * @example await startReplayServer({ fixturesDir: defaultFixturesDir() })
 */
export function defaultFixturesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'fixtures');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return resolve('test', 'fixtures');
}
