import { type GraphQLSchema, Kind, parse, validate } from 'graphql';
import { type PreparedOperation, prepareOperation } from '../src/gateway/in-process-gateway.js';
import type { OperationRow, RouteRow, RouteTable } from './route-row.js';
import { RouteTableError } from './route-table-error.js';
import { rowOperation } from './row-operation.js';

/** An operation row with its GraphQL operation parsed and validated once, at start. */
export interface CompiledOperationRow {
  row: OperationRow;
  prepared: PreparedOperation;
  /** Names of the operation's variables: the default variable mapping keeps only these. */
  variableNames: string[];
}

/**
 * Checks every row against the supergraph and prepares its operation; a row that names a missing field
 * or an invalid operation stops the server at start, not at the first call. `checked` holds, by row id, operation
 * texts already generated from these rows and validated against this same schema (when the bundle was built,
 * src/server/built-artifacts.ts): those rows are parsed and prepared, not generated and validated again.
 */
export function compileRouteTable(
  table: RouteTable,
  schema: GraphQLSchema,
  checked?: ReadonlyMap<string, string>,
): Map<RouteRow, CompiledOperationRow> {
  const compiled = new Map<RouteRow, CompiledOperationRow>();
  const ids = new Set<string>();
  for (const row of table.rows) {
    const key = `${row.method} ${row.path}`;
    if (ids.has(row.id) || ids.has(key)) throw new RouteTableError(`duplicate route ${row.id} (${key})`);
    ids.add(row.id);
    ids.add(key);
    if (row.kind !== 'operation') continue;
    const built = checked?.get(row.id);
    const source = built ?? rowOperation(row, schema);
    const document = parse(source);
    const errors = built === undefined ? validate(schema, document) : [];
    if (errors.length > 0) {
      throw new RouteTableError(`route ${row.id}: ${errors.map((e) => e.message).join('; ')}`);
    }
    const prepared = prepareOperation(source, document);
    const selectsField = prepared.operation.selectionSet.selections.some(
      (s) => s.kind === Kind.FIELD && (s.alias ?? s.name).value === row.field,
    );
    if (!selectsField) throw new RouteTableError(`route ${row.id}: operation does not select ${row.field}`);
    const variableNames = (prepared.operation.variableDefinitions ?? []).map((v) => v.variable.name.value);
    compiled.set(row, { row, prepared, variableNames });
  }
  return compiled;
}
