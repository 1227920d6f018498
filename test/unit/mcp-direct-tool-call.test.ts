import { describe, expect, it } from 'vitest';
import type { AgentTool } from '../../src/http/mcp/agent-tools.js';
import { directToolCall, toolCallAnswer } from '../../src/http/mcp/direct-tool-call.js';

const tool = { name: 'resolve_ens_name' } as AgentTool;
const byName = new Map([[tool.name, tool]]);
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const call = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params,
  ...extra,
});

describe('the direct tools/call path takes only messages the SDK would hand to the handler unchanged', () => {
  it('takes a single tools/call of a listed tool, with arguments and an x402 payment in _meta', () => {
    const body = call({ name: 'resolve_ens_name', arguments: { name: 'alice.eth' }, _meta: { 'x402/payment': {} } });
    expect(directToolCall(headers, body, byName)).toEqual({
      id: 1,
      tool,
      arguments: { name: 'alice.eth' },
      meta: { 'x402/payment': {} },
    });
    expect(directToolCall({ ...headers, 'mcp-protocol-version': undefined }, body, byName)?.id).toBe(1);
  });

  it.each([
    ['a batch', [call({ name: 'resolve_ens_name' })], headers],
    ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'resolve_ens_name' } }, headers],
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, headers],
    ['an unknown tool', call({ name: 'no_such_tool' }), headers],
    ['an extra member', call({ name: 'resolve_ens_name' }, { extra: 1 }), headers],
    ['a fractional id', { ...call({ name: 'resolve_ens_name' }), id: 1.5 }, headers],
    ['arguments that are not an object', call({ name: 'resolve_ens_name', arguments: [] }), headers],
    ['a progress token', call({ name: 'resolve_ens_name', _meta: { progressToken: 1 } }), headers],
    ['a task', call({ name: 'resolve_ens_name', task: {} }), headers],
    ['no SSE in Accept', call({ name: 'resolve_ens_name' }), { ...headers, accept: 'application/json' }],
    ['another content type', call({ name: 'resolve_ens_name' }), { ...headers, 'content-type': 'text/plain' }],
    [
      'a content type the SDK parses',
      call({ name: 'resolve_ens_name' }),
      { ...headers, 'content-type': 'application/json; charset=UTF-8' },
    ],
    [
      'an unsupported protocol version',
      call({ name: 'resolve_ens_name' }),
      { ...headers, 'mcp-protocol-version': '1999-01-01' },
    ],
  ])('leaves %s to the SDK', (_, body, given) => {
    expect(directToolCall(given, body, byName)).toBeUndefined();
  });

  it('answers { result, jsonrpc, id } with the result as the SDK normalises it', () => {
    const answer = toolCallAnswer('a', { isError: true, content: [{ type: 'text', text: 'x' }] });
    expect(answer).toBe('{"result":{"content":[{"type":"text","text":"x"}],"isError":true},"jsonrpc":"2.0","id":"a"}');
  });

  it('answers a shared (frozen) result with the same bytes for every id, as JSON.stringify({ result, jsonrpc, id }) writes them', () => {
    const shared = Object.freeze({
      content: [{ type: 'text' as const, text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    for (const id of [1, 'x', 2]) {
      expect(toolCallAnswer(id, shared)).toBe(JSON.stringify({ result: shared, jsonrpc: '2.0', id }));
    }
  });
});
