import { type GraphQLSchema, isNonNullType, parse } from 'graphql';
import type { RouteRow } from '../route-row.js';
import { rowOperation, rowRootField } from '../row-operation.js';
import type { ErrorResponses } from './error-responses.js';
import type { GraphqlJsonSchemas } from './graphql-json-schema.js';
import type { JsonSchema, Reference, ResponseObject } from './openapi-types.js';
import { rateLimitHeaderRefs } from './rate-limit-headers.js';
import { selectionJsonSchema } from './selection-json-schema.js';

export interface RowResponsesParams {
  row: RouteRow;
  /** The supergraph API schema whose Query fields answer operation rows. */
  schema: GraphQLSchema;
  graphql: GraphqlJsonSchemas;
  errors: ErrorResponses;
  /** Whether the price (the row's or the default) makes a 402 possible. */
  paid: boolean;
  /** The operation text an operation row runs (`rowOperation`), when the caller has it already. */
  operation?: string;
}

/**
 * The 200 and error responses of a row, ordered by status.
 * @example rowResponses({ row, schema, graphql, errors, paid: true })['402'] // { $ref: '#/components/responses/PaymentRequired' }
 */
export function rowResponses({
  row,
  schema,
  graphql,
  errors,
  paid,
  operation,
}: RowResponsesParams): Record<string, ResponseObject | Reference> {
  const counted = row.tier !== 'free';
  const headers = counted ? { headers: rateLimitHeaderRefs() } : {};
  // Credentials that are sent are checked on every route (a bad key or token is refused): every row can answer 401.
  const statuses = new Set<number>([401, 500, ...(row.errors ?? [])]);
  if (hasParams(row)) statuses.add(400);
  if (counted) statuses.add(429);
  if (paid) statuses.add(402);

  let ok: ResponseObject;
  if (row.kind === 'operation') {
    const { field } = rowRootField(row, schema);
    const derived = selectionJsonSchema({
      schema,
      document: parse(operation ?? rowOperation(row, schema)),
      field: row.field,
      graphql,
      inline: row.shape !== undefined,
    });
    const body = row.shape ? row.shape.schema(derived) : derived;
    const answersNotFound = !isNonNullType(field.type) || row.notFound !== undefined;
    ok = {
      description: answersNotFound ? restDescription(field.description) : (field.description ?? 'OK'),
      ...headers,
      content: { 'application/json': { schema: body } },
    };
    statuses.add(503);
    if (answersNotFound) statuses.add(404);
  } else if (row.kind === 'batch') {
    ok = { description: 'OK', ...headers, content: { 'application/json': { schema: row.responseSchema } } };
  } else {
    const mediaType = row.contentType.split(';')[0]?.trim() ?? row.contentType;
    const body: JsonSchema = { type: 'string' };
    ok = { description: 'OK', ...headers, content: { [mediaType]: { schema: body } } };
  }

  const responses: Record<string, ResponseObject | Reference> = { '200': ok };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    responses[String(status)] = errors.ref(status, row.envelope ?? 'full');
  }
  return responses;
}

function hasParams(row: RouteRow): boolean {
  const { path, query, body } = row.params ?? {};
  return [path, query, body].some((schema) => schema !== undefined && Object.keys(schema.shape).length > 0);
}

/**
 * A nullable field's description as its REST path means it: GraphQL answers null where the path answers 404, so the
 * field's "; null when …" clause (which generated clients would copy) is said as the 404 it is.
 * @example restDescription('An ERC-20: name, symbol; null when not a token') // 'An ERC-20: name, symbol (404 when not a token)'
 */
export function restDescription(description: string | undefined | null): string {
  if (!description) return 'OK';
  const clause = description.match(/^(.*?);\s*null\s+(.+)$/s);
  return clause ? `${clause[1]} (404 ${clause[2]})` : description;
}
