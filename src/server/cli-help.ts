/**
 * Prints `usage` and ends the process with 0 when the script's arguments ask for help (`--help` or `-h`): every npm
 * script that takes arguments answers it before it loads or starts anything.
 * @example exitWithHelpIfAsked(process.argv.slice(2), 'usage: npm run demo -- <action>\n')
 */
export function exitWithHelpIfAsked(args: readonly string[], usage: string): void {
  if (!args.includes('--help') && !args.includes('-h')) return;
  process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
  process.exit(0);
}
