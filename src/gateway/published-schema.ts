import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildASTSchema, type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import { projectRoot } from '../config/project-root.js';

/** The composed schema as checked in under schema/ (written by `npm run schema:write`, kept exact by a test). */
export interface PublishedSchema {
  /** schema/supergraph.graphql: what Apollo Router or Hive Gateway composes from. */
  supergraphSdl: string;
  /** schema/api.graphql, built: the API schema clients see, derived from the supergraph. */
  apiSchema: GraphQLSchema;
  /** SHA-256 (hex) of schema/api.graphql's text: what anything checked against it at build time names. */
  apiSdlSha256: string;
}

/**
 * The API schema's SDL parsed without locations, as the build stores it (src/server/built-artifacts.ts): nothing reads
 * where in api.graphql a type was written, and its JSON parses in a fraction of the time GraphQL's parser takes.
 */
export function parseApiSdl(apiSdl: string): DocumentNode {
  return parse(apiSdl, { noLocation: true });
}

/**
 * Reads the checked-in supergraph and API schema instead of composing the subgraphs on every start (composition takes
 * about as long as the rest of a start); test/e2e/schema-files.test.ts proves both equal a fresh composition.
 * `parsed` gives api.graphql already parsed (parseApiSdl) when it has the text of that hash; otherwise it is parsed.
 * @example const { supergraphSdl, apiSchema } = readPublishedSchema()
 */
export function readPublishedSchema(
  dir: string = join(projectRoot(), 'schema'),
  parsed?: (apiSdlSha256: string) => DocumentNode | undefined,
): PublishedSchema {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const apiSdl = read('api.graphql');
  const apiSdlSha256 = createHash('sha256').update(apiSdl).digest('hex');
  const document = parsed?.(apiSdlSha256) ?? parseApiSdl(apiSdl);
  // printSchema wrote it from a valid schema, and a test proves it unchanged: its SDL is not validated again.
  return {
    supergraphSdl: read('supergraph.graphql'),
    apiSchema: buildASTSchema(document, { assumeValidSDL: true }),
    apiSdlSha256,
  };
}
