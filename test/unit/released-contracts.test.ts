import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, findBreakingChanges } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument, OperationObject, ParameterObject } from '../../rest-compat/openapi/openapi-types.js';
import { projectRoot } from '../../src/config/project-root.js';

/** The contracts of the last release (docs/versioning.md): what clients built against it rely on. */
const RELEASED = '3.0.0';
const releasedDir = join(projectRoot(), 'test', 'fixtures', 'released-contracts', RELEASED);
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');

/** The `### Breaking` items of CHANGELOG.md's `## Unreleased` section: the breaking changes announced so far. */
function announcedBreakingChanges(): string[] {
  const changelog = read(projectRoot(), 'CHANGELOG.md');
  const unreleased = changelog.split(/^## /m).find((section) => section.startsWith('Unreleased')) ?? '';
  const breaking = unreleased.split(/^### /m).find((section) => section.startsWith('Breaking')) ?? '';
  return breaking
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

/** The changes that no announced item names. */
const unannounced = (changes: string[]) =>
  changes.filter((change) => !announcedBreakingChanges().some((item) => item.includes(change)));

type Operations = Map<string, OperationObject>;
function operationsOf(document: OpenApiDocument): Operations {
  const operations: Operations = new Map();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) operations.set(`${method.toUpperCase()} ${path}`, op);
  }
  return operations;
}

/** What a client of the released REST paths (and the MCP tools named after their operation ids) would break on. */
function breakingRestChanges(released: Operations, current: Operations): string[] {
  const changes: string[] = [];
  for (const [name, was] of released) {
    const now = current.get(name);
    if (!now) {
      changes.push(`${name} removed`);
      continue;
    }
    if (now.operationId !== was.operationId)
      changes.push(`${name} operationId ${was.operationId} became ${now.operationId} (its MCP tool's name too)`);
    const params = (op: OperationObject) => (op.parameters ?? []) as ParameterObject[];
    for (const p of params(was)) {
      if (!params(now).some((q) => q.name === p.name && q.in === p.in))
        changes.push(`${name} ${p.in} parameter ${p.name} removed`);
    }
    for (const q of params(now)) {
      const before = params(was).find((p) => p.name === q.name && p.in === q.in);
      if (q.required && !before?.required) changes.push(`${name} ${q.in} parameter ${q.name} became required`);
    }
    for (const status of Object.keys(was.responses)) {
      if (status.startsWith('2') && !(status in now.responses)) changes.push(`${name} no longer answers ${status}`);
    }
  }
  return changes;
}

describe(`released contracts: no breaking change to ${RELEASED}'s schema, paths or tools lands unannounced`, () => {
  it('the GraphQL schema (schema/api.graphql) breaks nothing a client of the release relies on, unless CHANGELOG.md announces it', () => {
    const changes = findBreakingChanges(
      buildSchema(read(releasedDir, 'api.graphql')),
      buildSchema(read(projectRoot(), 'schema', 'api.graphql')),
    ).map((change) => `${change.type}: ${change.description}`);
    expect(unannounced(changes)).toEqual([]);
  });

  it('the REST paths (schema/openapi.yaml) and the MCP tools named after them keep every operation, parameter and 2xx, unless announced', () => {
    const released = operationsOf(parseYaml(read(releasedDir, 'openapi.yaml')) as OpenApiDocument);
    const current = operationsOf(parseYaml(read(projectRoot(), 'schema', 'openapi.yaml')) as OpenApiDocument);
    expect(released.size).toBeGreaterThan(50);
    expect(unannounced(breakingRestChanges(released, current))).toEqual([]);
  });

  it('the check sees a breaking change: a removed field, a removed path, a new required parameter', () => {
    const graphql = findBreakingChanges(
      buildSchema('type Query { a: Int, b: Int }'),
      buildSchema('type Query { a: Int }'),
    );
    expect(graphql.map((c) => c.description)).toEqual(['Query.b was removed.']);
    const op = (parameters: ParameterObject[]) =>
      ({ operationId: 'x', parameters, responses: { '200': {} } }) as unknown as OperationObject;
    const released: Operations = new Map([
      ['GET /a', op([])],
      ['GET /b', op([])],
    ]);
    const current: Operations = new Map([
      ['GET /a', op([{ name: 'limit', in: 'query', required: true, schema: {} } as ParameterObject])],
    ]);
    expect(breakingRestChanges(released, current)).toEqual([
      'GET /a query parameter limit became required',
      'GET /b removed',
    ]);
  });
});
