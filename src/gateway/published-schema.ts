import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type GraphQLSchema } from 'graphql';
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
 * Reads the checked-in supergraph and API schema instead of composing the subgraphs on every start (composition takes
 * about as long as the rest of a start); test/e2e/schema-files.test.ts proves both equal a fresh composition.
 * @example const { supergraphSdl, apiSchema } = readPublishedSchema()
 */
export function readPublishedSchema(dir: string = join(projectRoot(), 'schema')): PublishedSchema {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const apiSdl = read('api.graphql');
  // printSchema wrote it from a valid schema, and a test proves it unchanged: its SDL is not validated again.
  return {
    supergraphSdl: read('supergraph.graphql'),
    apiSchema: buildSchema(apiSdl, { assumeValidSDL: true }),
    apiSdlSha256: createHash('sha256').update(apiSdl).digest('hex'),
  };
}
