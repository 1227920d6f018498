import type { IncomingHttpHeaders } from 'node:http';
import { Kind } from 'graphql';
import Negotiator from 'negotiator';
import { BoundedMemo } from '../memo/bounded-memo.js';
import { badRequest, newResponseHead } from './graphql-coded-errors.js';
import { MalformedJsonBody } from './json-body.js';

/** What a GraphQL request asks, read from a POST body or a GET query string (GraphQL over HTTP). */
export interface GraphqlParams {
  query: string | undefined;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  extensions: Record<string, unknown> | undefined;
}

/** The HTTP request as the pipeline reads it. */
export interface GraphqlHttpRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The query string, without its `?`. */
  search: string;
  /** The parsed JSON body (a {@link MalformedJsonBody} when it did not parse; undefined when there is none). */
  body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/** Whether a parsed JSON object has any member (no array of its keys made, as Object.keys would on every request). */
function hasMembers(body: Record<string, unknown>): boolean {
  for (const _ in body) return true;
  return false;
}

/** `variables` or `extensions` sent as a JSON-encoded string instead of an object. */
function encodedTwice(name: 'variables' | 'extensions'): never {
  throw badRequest(
    `\`${name}\` in a POST body should be provided as an object, not a recursively JSON-encoded string.`,
  );
}

function checkPostBody(body: unknown): asserts body is Record<string, unknown> {
  if (body instanceof MalformedJsonBody) throw badRequest(`POST body is not valid JSON: ${body.reason}`);
  if (Array.isArray(body)) throw badRequest('Operation batching disabled.');
  if (!isRecord(body) || !hasMembers(body)) {
    throw badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
  }
  const { query, variables, extensions, operationName } = body;
  if (query && typeof query !== 'string') {
    throw badRequest(
      (query as { kind?: unknown }).kind === Kind.DOCUMENT
        ? "GraphQL queries must be strings. It looks like you're sending the internal graphql-js representation of a parsed query in your request instead of a request in the GraphQL query language. You can convert an AST to a string using the `print` function from `graphql`, or use a client like `apollo-client` which converts the internal representation to a string for you."
        : 'GraphQL queries must be strings.',
    );
  }
  if (typeof variables === 'string') encodedTwice('variables');
  if (typeof extensions === 'string') encodedTwice('extensions');
  if ('extensions' in body && extensions !== null && !isRecord(extensions)) {
    throw badRequest('`extensions` in a POST body must be an object if provided.');
  }
  if ('variables' in body && variables !== null && !isRecord(variables)) {
    throw badRequest('`variables` in a POST body must be an object if provided.');
  }
  if ('operationName' in body && operationName !== null && typeof operationName !== 'string') {
    throw badRequest('`operationName` in a POST body must be a string if provided.');
  }
}

function searchParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw badRequest(`The '${name}' search parameter may only be specified once.`);
  return values[0];
}

function jsonSearchParam(params: URLSearchParams, name: string): Record<string, unknown> | undefined {
  const value = searchParam(params, name);
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(`The ${name} search parameter contains invalid JSON.`);
  }
  if (!isRecord(parsed)) throw badRequest(`The ${name} search parameter should contain a JSON-encoded object.`);
  return parsed;
}

/**
 * The GraphQL request a GET or POST carries, or the BAD_REQUEST error that says why it is none (405 for another
 * method, 415 for a GET with a body type other than JSON).
 * @example graphqlParams({ method: 'POST', headers, search: '', body: { query: '{ __typename }' } }).query // '{ __typename }'
 */
export function graphqlParams(request: GraphqlHttpRequest): GraphqlParams {
  if (request.method === 'POST') {
    const { body } = request;
    checkPostBody(body);
    return {
      query: typeof body.query === 'string' ? body.query : undefined,
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
      variables: isRecord(body.variables) ? body.variables : undefined,
      extensions: isRecord(body.extensions) ? body.extensions : undefined,
    };
  }
  if (request.method === 'GET') {
    const type = request.headers['content-type'];
    if (type !== undefined && type.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      throw badRequest(
        'GET requests may not have a content-type header other than application/json.',
        newResponseHead(415),
      );
    }
    const params = new URLSearchParams(request.search);
    return {
      query: searchParam(params, 'query'),
      operationName: searchParam(params, 'operationName'),
      variables: jsonSearchParam(params, 'variables'),
      extensions: jsonSearchParam(params, 'extensions'),
    };
  }
  const head = newResponseHead(405);
  head.headers.set('allow', 'GET, POST');
  throw badRequest('Apollo Server supports only GET/POST requests.', head);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** The types an answer can take, in the server's order of preference (the JSONP-style callback type only on request). */
const ANSWER_TYPES = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE, 'application/json; callbackSpec=1.0; charset=utf-8'];

/** The Accept headers seen, with the type each gets ('': none acceptable); clients send a handful of them. */
const typeByAccept = new BoundedMemo<string, string>(1000);
/** Longer Accept headers are negotiated on every call: the memo stays within 1,000 × 256 characters. */
const MEMO_ACCEPT_MAX = 256;

/**
 * The content type of a GraphQL answer for the request's Accept header: JSON without one, else the best match of
 * JSON and application/graphql-response+json by the header's weights; null when it accepts neither (406).
 * @example answerContentType('application/graphql-response+json') // 'application/graphql-response+json; charset=utf-8'
 */
export function answerContentType(accept: string | undefined): string | null {
  if (!accept) return JSON_TYPE;
  const negotiate = () => new Negotiator({ headers: { accept } }).mediaType(ANSWER_TYPES) ?? '';
  const type = accept.length <= MEMO_ACCEPT_MAX ? typeByAccept.get(accept, negotiate) : negotiate();
  return type === '' ? null : type;
}
