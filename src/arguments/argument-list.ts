import { z } from 'zod';

/**
 * A list of 1 to `max` entries, each checked by `entry` (a JSON list, a GraphQL list).
 * @example argumentList(evmAddress, { max: 100, noun: 'addresses' })
 */
export function argumentList<T extends z.ZodType>(entry: T, p: { max: number; noun: string }) {
  const message = `must name 1 to ${p.max} ${p.noun}`;
  return z.array(entry).min(1, message).max(p.max, message);
}

/**
 * A comma-separated query value as an {@link argumentList}, blanks dropped.
 * @example commaSeparated(evmAddress, { max: 100, noun: 'addresses' })
 */
export function commaSeparated<T extends z.ZodType<unknown, string>>(entry: T, p: { max: number; noun: string }) {
  return z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(argumentList(entry, p));
}
