import type { z } from 'zod';
import { type ApiError, invalidParameter } from '../errors/api-error.js';

/**
 * The 400 of a refused argument: one wording for a REST parameter and a GraphQL argument of the same name, so the
 * two surfaces answer the same bad input with the same message.
 * @example invalidArgument('limit', 'must be an integer from 1 to 100').message // 'parameter limit: must be …'
 */
export function invalidArgument(name: string, message: string): ApiError {
  return invalidParameter(`parameter ${name}: ${message}`);
}

/**
 * The first issue of a failed parse as {@link invalidArgument}; `name` stands before the issue's own path. A map's
 * refused key says what its key rule says (`coin types are decimal numbers`), not zod's `Invalid key in record`.
 */
export function argumentError(error: z.ZodError, name: string | undefined): ApiError {
  const issue = error.issues[0]!;
  const path = [...(name === undefined ? [] : [name]), ...issue.path.map(String)];
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return invalidArgument(path.length > 0 ? path.join('.') : 'input', message);
}

/**
 * The first issue of a failed parse of a whole request part (the body, the query) as {@link argumentError}: named by
 * its path, or after the part for a rule over the part as a whole, on REST and on the GraphQL fields that take the
 * same fields as separate arguments.
 * @example partError(updateWebhookBody.safeParse({}).error!, 'body').message // 'parameter body: change at least one of …'
 */
export function partError(error: z.ZodError, part: string): ApiError {
  return argumentError(error, error.issues[0]?.path.length ? undefined : part);
}

/**
 * Parses one resolver argument with the schema its REST parameter uses; a GraphQL null counts as absent, so the
 * schema's default applies. A refused value is the same 400 INVALID_PARAMETER the REST route gives.
 * @example const limit = parseArgument(pageLimit(100, 20), 'limit', args.limit) // 20 when absent
 */
export function parseArgument<T extends z.ZodType>(schema: T, name: string, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? undefined);
  if (parsed.success) return parsed.data;
  throw argumentError(parsed.error, name);
}
