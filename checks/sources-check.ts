import { pathToFileURL } from 'node:url';
import type { loadConfig } from '../src/config/config.js';
import { exitWithHelpIfAsked } from '../src/server/cli-help.js';
import type { SourceCheck } from './source-contracts/check-sources.js';

const COLUMNS = ['source', 'origin', 'reachable', 'authenticated', 'contract', 'result'] as const;

/**
 * The report as a table, one line per source, then each failing source's problems.
 * @example formatSourceChecks(await checkSources({ config }))
 */
export function formatSourceChecks(checks: readonly SourceCheck[]): string {
  const rows = checks.map((c) => [
    c.source,
    c.origin,
    c.reachable ? `yes (${c.status})` : 'no',
    c.authenticated,
    c.contract === 'matches'
      ? `matches ${c.vendor}`
      : c.contract === 'differs'
        ? `differs from ${c.vendor}`
        : 'no reply',
    c.ok ? 'ok' : 'FAIL',
  ]);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const failures = checks
    .filter((c) => !c.ok)
    .map((c) => `\n${c.source}:\n${c.problems.map((p) => `  - ${p}`).join('\n')}`);
  return `${[line(COLUMNS), ...rows.map(line)].join('\n')}\n${failures.join('\n')}${failures.length > 0 ? '\n' : ''}`;
}

/**
 * Runs the check for an environment and writes the report; the exit code is 0 when every configured source is
 * reachable, accepts its key and answers as its contract says, 1 otherwise, 2 for a configuration refused at start.
 * @example process.exitCode = await runSourcesCheck({ env: process.env, write: (t) => process.stdout.write(t) })
 */
export async function runSourcesCheck(p: {
  env: Record<string, string | undefined>;
  write: (text: string) => void;
  fetch?: typeof fetch;
}): Promise<number> {
  // Loaded here, not at the top: `--help` answers before the sources' modules load.
  const { ConfigError, loadConfig, secretValues } = await import('../src/config/config.js');
  const { scrubber } = await import('../src/logging/logger.js');
  const { checkSources } = await import('./source-contracts/check-sources.js');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(p.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    p.write(`${err.message}\n`);
    return 2;
  }
  const checks = await checkSources({ config, ...(p.fetch === undefined ? {} : { fetch: p.fetch }) });
  if (checks.length === 0) {
    p.write('No upstream is configured live: every source runs on the local replay (docs/configuration.md).\n');
    return 0;
  }
  // Paths and problems may quote a key (DefiLlama's and Alchemy's sit in the URL path).
  p.write(scrubber(secretValues(p.env))(formatSourceChecks(checks)));
  return checks.every((c) => c.ok) ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitWithHelpIfAsked(
    process.argv.slice(2),
    `usage: npm run sources:check

Sends one cheap request to every upstream the environment makes live (the same env vars as npm start) and prints,
per source, whether it is reachable, accepts the key and answers as the vendor's contract says, then each failing
source's problems. Exit code 0 when all pass, 1 otherwise, 2 for a configuration npm start would refuse.
Guide: docs/operators.md#checking-the-live-sources`,
  );
  process.exitCode = await runSourcesCheck({ env: process.env, write: (text) => process.stdout.write(text) });
}
