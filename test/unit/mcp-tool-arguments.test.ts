import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ToolArgumentRules, toolInput } from '../../src/http/mcp/tool-arguments.js';
import { parseRouteParts } from '../../src/http/rest-routes.js';

/** A row whose body has a rule over the body as a whole, as updateWebhook's "change at least one of …". */
const params = {
  path: z.object({ id: z.string() }),
  body: z
    .object({ url: z.string().optional(), status: z.string().optional() })
    .refine((body) => body.url !== undefined || body.status !== undefined, 'change at least one of url, status'),
};
const tool: ToolArgumentRules = {
  name: 'change_thing',
  schemas: { argumentParts: { id: 'path', url: 'body', status: 'body' } },
  compiled: { row: { params } },
};
const refusal = (call: () => unknown) => {
  try {
    call();
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('an MCP tool refused as a whole names its arguments, the one object an MCP caller sends', () => {
  it('a rule over the whole body is "parameter arguments: …" over MCP, "parameter body: …" over REST', () => {
    expect(refusal(() => toolInput(tool, { id: 'w1' }))).toBe(
      'parameter arguments: change at least one of url, status',
    );
    expect(refusal(() => parseRouteParts(params, { path: { id: 'w1' }, query: {}, body: {} }))).toBe(
      'parameter body: change at least one of url, status',
    );
  });

  it('a refused argument is still named by itself, and a valid call is split into its parts', () => {
    expect(refusal(() => toolInput(tool, { id: 7, url: 'https://example.org' }))).toMatch(/^parameter id: /);
    expect(toolInput(tool, { id: 'w1', status: 'paused' })).toEqual({
      path: { id: 'w1' },
      query: {},
      body: { status: 'paused' },
    });
  });
});
