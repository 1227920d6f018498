import type { RouteInput } from '../../../rest-compat/route-row.js';
import { invalidArgument } from '../../arguments/parse-argument.js';
import { invalidParameter } from '../../errors/api-error.js';
import { parseRouteParts } from '../rest-routes.js';
import type { AgentTool } from './agent-tools.js';

const PARTS = ['path', 'query', 'body'] as const;

/** What {@link toolInput} reads of a tool: its name, where each argument goes, the row's schemas. */
export type ToolArgumentRules = Pick<AgentTool, 'name'> & {
  schemas: Pick<AgentTool['schemas'], 'argumentParts'>;
  compiled: { row: Pick<AgentTool['compiled']['row'], 'params'> };
};

/**
 * A tool call's arguments as the row's validated input: each argument goes to the part of the HTTP request it
 * stands for (path, query or body) and through the row's own zod schema, so a tool accepts exactly what its REST
 * path accepts, refused with the very message REST and GraphQL give (`parameter <name>: …`). A rule over a whole
 * part names the tool's `arguments`, the one object an MCP caller sends.
 * @example toolInput(resolveTool, { name: 'alice.eth' }) // { path: { name: 'alice.eth' }, query: {}, body: {} }
 */
export function toolInput(tool: ToolArgumentRules, args: unknown): RouteInput {
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
      throw invalidArgument(
        name,
        `unknown; ${tool.name} takes ${known.length > 0 ? known.join(', ') : 'no arguments'}`,
      );
    }
    given[part][name] = value;
  }
  return parseRouteParts(tool.compiled.row.params, given, 'arguments');
}
