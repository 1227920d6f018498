import { describe, expect, it } from 'vitest';
import { CachedAnswers } from '../../src/http/mcp/cached-answers.js';

describe('MCP answers serialized once and spliced into each JSON-RPC answer', () => {
  it("puts a stored answer's JSON where its placeholder string stands, and leaves the rest of the body as it is", () => {
    const cache = new CachedAnswers();
    const contents = [{ uri: 'api://doc', mimeType: 'text/plain', text: 'line 1\n"quoted" ünïcode' }];
    const { placeholder, bytes } = cache.store(() => contents);
    const body = JSON.stringify([{ jsonrpc: '2.0', id: 1, result: { contents: placeholder } }]);
    const spliced = cache.splice(body);
    expect(JSON.parse(spliced.toString())).toEqual([{ jsonrpc: '2.0', id: 1, result: { contents } }]);
    expect(bytes()).toBe(Buffer.byteLength(JSON.stringify(contents)));
  });

  it('makes a stored answer once, on first use', () => {
    const cache = new CachedAnswers();
    let made = 0;
    const { placeholder, bytes } = cache.store(() => {
      made += 1;
      return { text: 'rendered' };
    });
    expect(made).toBe(0);
    const body = JSON.stringify({ result: placeholder });
    expect(cache.splice(body).toString()).toBe('{"result":{"text":"rendered"}}');
    expect(bytes()).toBe(19);
    cache.splice(body);
    expect(made).toBe(1);
  });

  it('a body without a placeholder, or with a guessed one (an echoed argument), is answered unchanged', () => {
    const cache = new CachedAnswers();
    cache.store(() => ({ big: 'x'.repeat(1000) }));
    const echoed = JSON.stringify({
      error: { message: 'no resource "cached-answer-00000000000000000000000000000000-0"' },
    });
    expect(cache.splice(echoed)).toBe(echoed);
    expect(cache.splice('{"result":{}}')).toBe('{"result":{}}');
  });
});
