const cell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * A markdown table laid out as `npm run format` (biome) lays it out: every column as wide as its widest cell.
 * @example markdownTable(['a', 'b'], [['1', '2']]) // '| a   | b   |\n| --- | --- |\n| 1   | 2   |'
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, i) => Math.max(3, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}
