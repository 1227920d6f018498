import { join } from 'node:path';
import { projectRoot } from '../../config/project-root.js';

/**
 * The project's `recordings/`: the upstream replies the embedded default replays, one folder per source, found from
 * this file whether it runs from `src/`, from `dist/src/` or from the bundle in `dist/bundle/`.
 * @example await startReplayServer({ recordingsDir: defaultRecordingsDir() })
 */
export function defaultRecordingsDir(): string {
  return join(projectRoot(), 'recordings');
}
