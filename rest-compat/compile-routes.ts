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
 * or an invalid operation stops the server at start, not at the first call.
 */
export function compileRouteTable(table: RouteTable, schema: GraphQLSchema): Map<RouteRow, CompiledOperationRow> {
  const compiled = new Map<RouteRow, CompiledOperationRow>();
  const ids = new Set<string>();
  for (const row of table.rows) {
    const key = `${row.method} ${row.path}`;
    if (ids.has(row.id) || ids.has(key)) throw new RouteTableError(`duplicate route ${row.id} (${key})`);
    ids.add(row.id);
    ids.add(key);
    if (row.kind !== 'operation') continue;
    const source = rowOperation(row, schema);
    const document = parse(source);
    const errors = validate(schema, document);
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
