import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { RouteInput } from '../../rest-compat/route-row.js';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import { ApiError } from '../errors/api-error.js';
import type { InProcessGateway } from '../gateway/in-process-gateway.js';
import { apiErrorFromGraphQL } from './graphql-errors.js';

function variablesFor(compiled: CompiledOperationRow, input: RouteInput): Record<string, unknown> {
  if (compiled.row.variables) return compiled.row.variables(input);
  const merged: Record<string, unknown> = { ...input.body, ...input.query, ...input.path };
  const vars: Record<string, unknown> = {};
  for (const name of compiled.variableNames) if (merged[name] !== undefined) vars[name] = merged[name];
  return vars;
}

/**
 * Runs a row's GraphQL operation with validated input and returns the body it answers: the root field's value,
 * shaped by the row. A null value is the row's 404 (or the GraphQL error that caused it). REST routes and MCP tools
 * both answer through this one function.
 * @example const body = await runOperationRow({ compiled, input, gateway, context: contexts.create(request) })
 */
export async function runOperationRow(p: {
  compiled: CompiledOperationRow;
  input: RouteInput;
  gateway: InProcessGateway;
  context: GraphContext;
}): Promise<unknown> {
  const { row } = p.compiled;
  const result = await p.gateway.execute(p.compiled.prepared, variablesFor(p.compiled, p.input), p.context);
  const value = result.data?.[row.field];
  if (value === null || value === undefined) {
    if (result.errors?.length) throw apiErrorFromGraphQL(result.errors);
    throw new ApiError('NOT_FOUND', row.notFound ?? 'resource not found');
  }
  return row.shape ? row.shape.value(value) : value;
}
