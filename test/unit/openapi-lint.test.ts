import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument, OperationObject } from '../../rest-compat/openapi/openapi-types.js';

/** The published document (test/e2e/schema-files.test.ts keeps it equal to what the code builds and serves). */
const FILE = fileURLToPath(new URL('../../schema/openapi.yaml', import.meta.url));
const document = parseYaml(readFileSync(FILE, 'utf8')) as OpenApiDocument;

function operation(path: string, method: 'get' | 'post' | 'delete'): OperationObject {
  const op = document.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is not documented`);
  return op;
}

const allOperations = (): [string, OperationObject][] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, op]) => [`${method.toUpperCase()} ${path}`, op as OperationObject] as [string, OperationObject],
    ),
  );

describe('the OpenAPI document under independent linters', () => {
  it("passes Redocly's recommended ruleset with no errors", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: FILE, config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(errors).toEqual([]);
  });
});

describe('each operation declares what it really accepts', () => {
  it('free operations need nothing: security is empty', () => {
    for (const path of ['/api/health', '/api/gas', '/.well-known/x402', '/ccip/health', '/docs'])
      expect(operation(path, 'get').security, path).toEqual([]);
  });

  it('an open counted operation takes a key, a session, a payment, or nothing (anonymous within the free quota)', () => {
    expect(operation('/api/ens/resolve/{name}', 'get').security).toEqual([
      { ApiKeyAuth: [] },
      { BearerAuth: [] },
      { X402Payment: [] },
      {},
    ]);
    // /api/usage is free but reports the caller its credentials name.
    expect(operation('/api/usage', 'get').security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }, {}]);
  });

  it('session operations take only a session (with a payment past the quota where sold); wallet ones a session or a key', () => {
    expect(operation('/api/me', 'get').security).toEqual([{ BearerAuth: [] }, { BearerAuth: [], X402Payment: [] }]);
    expect(operation('/api/user/keys', 'get').security).toEqual([{ BearerAuth: [] }]);
    expect(operation('/api/user/keys/{id}', 'delete').security).toEqual([{ BearerAuth: [] }]);
    expect(operation('/api/subnames/{parent_name}', 'post').security).toEqual([
      { BearerAuth: [] },
      { BearerAuth: [], X402Payment: [] },
    ]);
    expect(operation('/api/webhooks', 'post').security).toEqual([
      { BearerAuth: [] },
      { ApiKeyAuth: [] },
      { BearerAuth: [], X402Payment: [] },
      { ApiKeyAuth: [], X402Payment: [] },
    ]);
  });

  it('an operation that answers 404 for a missing thing never describes its 200 as null (generated clients copy it)', () => {
    const nullWhen = allOperations()
      .filter(([, op]) => '404' in op.responses)
      .filter(([, op]) => /\bnull\b/.test((op.responses['200'] as { description: string }).description))
      .map(([name]) => name);
    expect(nullWhen).toEqual([]);
    expect((operation('/api/token/{address}', 'get').responses['200'] as { description: string }).description).toBe(
      'An ERC-20: name, symbol, decimals, total supply, read in one multicall (404 when not a token)',
    );
  });

  it('every operation documents its 401: credentials that are sent are checked everywhere', () => {
    const without = allOperations()
      .filter(([, op]) => op.responses['401'] === undefined)
      .map(([name]) => name);
    expect(without).toEqual([]);
  });
});
