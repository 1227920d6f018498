import { join } from 'node:path';
import { projectRoot } from './project-root.js';

/**
 * The project's `test/fixtures`, found from this file whether it runs from `src/` or from `dist/src/`.
 * @example await startReplayServer({ fixturesDir: defaultFixturesDir() })
 */
export function defaultFixturesDir(): string {
  return join(projectRoot(), 'test', 'fixtures');
}
