import { buildOperationNodeForField } from '@graphql-tools/utils';
import { type GraphQLField, type GraphQLSchema, Kind, OperationTypeNode, print } from 'graphql';
import type { OperationRow } from './route-row.js';
import { RouteTableError } from './route-table-error.js';

/** A row's root field and the operation type it sits on. */
export interface RowRootField {
  field: GraphQLField<unknown, unknown>;
  operation: OperationTypeNode.QUERY | OperationTypeNode.MUTATION;
}

/**
 * The supergraph field a row answers with: a Query field, or a Mutation field (sign-in, key management, subnames).
 * A row naming neither is a RouteTableError.
 * @example rowRootField({ kind: 'operation', id: 'resolveEnsName', field: 'ensResolve', … }, schema).operation // 'query'
 */
export function rowRootField(row: Pick<OperationRow, 'id' | 'field'>, schema: GraphQLSchema): RowRootField {
  const query = schema.getQueryType()?.getFields()[row.field];
  if (query) return { field: query, operation: OperationTypeNode.QUERY };
  const mutation = schema.getMutationType()?.getFields()[row.field];
  if (mutation) return { field: mutation, operation: OperationTypeNode.MUTATION };
  throw new RouteTableError(`route ${row.id}: the supergraph has no field Query.${row.field} or Mutation.${row.field}`);
}

/**
 * The GraphQL operation a row runs: its explicit `operation`, else the one selecting every field of its root field,
 * as sofa-api would generate it. The server runs this text and the OpenAPI document shows it (`x-graphql-operation`).
 * @example rowOperation({ kind: 'operation', id: 'resolveEnsName', field: 'ensResolve', … }, schema)
 * // 'query resolveEnsName($name: String!) {\n  ensResolve(name: $name) {\n    name\n    address\n  }\n}'
 */
export function rowOperation(row: OperationRow, schema: GraphQLSchema): string {
  if (row.operation) return row.operation;
  const node = buildOperationNodeForField({
    schema,
    kind: rowRootField(row, schema).operation,
    field: row.field,
    depthLimit: 5,
    circularReferenceDepth: 1,
  });
  return print({ kind: Kind.DOCUMENT, definitions: [{ ...node, name: { kind: Kind.NAME, value: row.id } }] });
}
