import type { z } from 'zod';

/** What a GraphQL argument declares of its rule: the value used when it is absent, and its description. */
export interface ArgumentOptions {
  defaultValue?: unknown;
  description?: string;
}

/**
 * The value a rule gives an absent argument (its `.default()`), or undefined when absence stays absence.
 * @example argumentDefault(pageLimit(100, 20)) // 20
 */
export function argumentDefault(rule: z.ZodType): unknown {
  const absent = rule.safeParse(undefined);
  return absent.success ? absent.data : undefined;
}

/**
 * A GraphQL argument's default and description, read from the rule its REST parameter and MCP tool use, so changing
 * the rule changes all three: `@Arg('limit', () => Int, argumentOptions(domainsLimit))`.
 * @example argumentOptions(domainsLimit) // { defaultValue: 50, description: 'names per page, 1 to 100 (default 50)' }
 */
export function argumentOptions(rule: z.ZodType): ArgumentOptions {
  const options: ArgumentOptions = {};
  const defaultValue = argumentDefault(rule);
  if (defaultValue !== undefined) options.defaultValue = defaultValue;
  if (rule.description !== undefined) options.description = rule.description;
  return options;
}
