import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpRequestError, TimeoutError } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonRpcTransport } from '../../src/sources/rpc/json-rpc-transport.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A local JSON-RPC endpoint answering with `handler`; resolves to its URL. */
async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One request through the transport, with what its observer saw. */
async function ask(url: string, timeoutMs: number) {
  const seen: boolean[] = [];
  const transport = jsonRpcTransport(url, {
    timeoutMs,
    retryCount: 0,
    observers: { observe: (_, ok) => seen.push(ok) },
  });
  const { request } = transport({ retryCount: 0 });
  const startedAt = performance.now();
  const outcome: { result?: unknown; error?: unknown } = await request({ method: 'eth_blockNumber' }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  return { ...outcome, elapsedMs: performance.now() - startedAt, seen };
}

describe('the JSON-RPC transport', () => {
  it('answers the result of a JSON-RPC reply', async () => {
    const url = await serve((_, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"jsonrpc":"2.0","id":1,"result":"0x10"}');
    });
    expect(await ask(url, 1000)).toMatchObject({ result: '0x10', seen: [true] });
  });

  it('gives up with a TimeoutError after timeoutMs in total, even when the reply keeps trickling in', async () => {
    // A byte every 40 ms: the socket is never idle for 300 ms, but the reply is complete only after 5 s; an answer
    // before then (a TimeoutError, not the result) is the total timeout's, however slowly the machine runs.
    const url = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","id":1,"result":"0x');
      const drip = setInterval(() => res.write('0'), 40);
      const end = setTimeout(() => res.end('1"}'), 5000);
      res.on('close', () => {
        clearInterval(drip);
        clearTimeout(end);
      });
    });
    const { error, elapsedMs, seen } = await ask(url, 300);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(elapsedMs).toBeGreaterThanOrEqual(290);
    expect(seen).toEqual([false]);
  });

  it.each([
    ['an empty body', ''],
    ['a body that is not JSON', '<html>ok</html>'],
    ['JSON with neither result nor error', '{"jsonrpc":"2.0","id":1}'],
    ['JSON that is not an object', 'null'],
  ])('takes a 200 with %s as a failed request, not as a result', async (_, body) => {
    const url = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const { error, seen } = await ask(url, 1000);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect((error as HttpRequestError).status).toBe(200);
    expect(seen).toEqual([false]);
  });
});
