import { stringify } from 'yaml';
import type { OpenApiDocument } from './openapi-types.js';

/**
 * The document as YAML: keys in the order the builder wrote them, no anchors or aliases, no line folding.
 * @example reply.type('application/yaml').send(renderOpenApiYaml(buildOpenApi({ table, schema })))
 */
export function renderOpenApiYaml(doc: OpenApiDocument): string {
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}
