import type { z } from 'zod';
import type { RouteInput } from '../../../rest-compat/route-row.js';
import { invalidParameter } from '../../errors/api-error.js';
import type { AgentTool } from './agent-tools.js';

const PARTS = ['path', 'query', 'body'] as const;

function parsePart(schema: z.ZodObject | undefined, value: Record<string, unknown>): Record<string, unknown> {
  if (!schema) return {};
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
  throw invalidParameter(`argument ${name}: ${issue.message}`);
}

/**
 * A tool call's arguments as the row's validated input: each argument goes to the part of the HTTP request it
 * stands for (path, query or body) and through the row's own zod schema, so a tool accepts exactly what its REST
 * path accepts. The first problem is a 400 INVALID_PARAMETER that names the argument.
 * @example toolInput(resolveTool, { name: 'alice.eth' }) // { path: { name: 'alice.eth' }, query: {}, body: {} }
 */
export function toolInput(tool: AgentTool, args: unknown): RouteInput {
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw invalidParameter('arguments must be a JSON object');
  }
  const given: Record<(typeof PARTS)[number], Record<string, unknown>> = {
    path: Object.create(null),
    query: Object.create(null),
    body: Object.create(null),
  };
  const { argumentParts } = tool.schemas;
  for (const [name, value] of Object.entries((args ?? {}) as Record<string, unknown>)) {
    // Own properties only: `constructor` or `__proto__` are unknown arguments, not Object.prototype's members.
    const part = Object.hasOwn(argumentParts, name) ? argumentParts[name] : undefined;
    if (part === undefined) {
      const known = Object.keys(argumentParts);
      throw invalidParameter(
        `argument ${name}: unknown; ${tool.name} takes ${known.length > 0 ? known.join(', ') : 'no arguments'}`,
      );
    }
    given[part][name] = value;
  }
  const params = tool.compiled.row.params;
  return {
    path: parsePart(params?.path, given.path),
    query: parsePart(params?.query, given.query),
    body: parsePart(params?.body, given.body),
  };
}
