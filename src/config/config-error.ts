/** The configuration refused: its message is what `npm start` prints before it exits 2, one line per variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * A ConfigError for values that do not validate, one `NAME: why` line each.
 * @example throw invalidConfiguration(['PORT: expected a number'])
 */
export function invalidConfiguration(lines: readonly string[]): ConfigError {
  return new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
}
