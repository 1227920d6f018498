import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { warmUpstreamClients } from '../../src/server/warm-upstream-clients.js';

/** Every TCP connection opened on this process's loopback ports while `run` runs (net.Socket connects). */
async function connectionsDuring<T>(run: () => Promise<T>): Promise<{ result: T; ports: number[] }> {
  const { Socket } = await import('node:net');
  const ports: number[] = [];
  const connect = Socket.prototype.connect;
  Socket.prototype.connect = function (this: InstanceType<typeof Socket>, ...args: unknown[]) {
    const first = args[0] as { port?: number } | number | unknown[];
    const options = Array.isArray(first) ? first[0] : first;
    const port = typeof options === 'number' ? options : (options as { port?: number } | undefined)?.port;
    if (port !== undefined) ports.push(Number(port));
    return (connect as (...a: unknown[]) => InstanceType<typeof Socket>).apply(this, args);
  } as typeof connect;
  try {
    return { result: await run(), ports };
  } finally {
    Socket.prototype.connect = connect;
  }
}

describe('the upstream clients warm-up', () => {
  it('sends the head block read, one batched Multicall3 read, a GET and a POST through the sources own clients, all to its own loopback server', async () => {
    const { result, ports } = await connectionsDuring(() => warmUpstreamClients(new AbortController().signal));
    // The contract and balance reads of one tick went out as one eth_call (Multicall3), decoded without error.
    expect(result.served.toSorted()).toEqual(['GET /warm/get', 'POST /warm/post', 'eth_blockNumber', 'eth_call']);
    // One port only: its own server's (node:http for JSON-RPC, fetch for the HTTP source).
    expect(new Set(ports).size).toBe(1);
  });

  it('closes its loopback server before it returns', async () => {
    const { ports } = await connectionsDuring(() => warmUpstreamClients(new AbortController().signal));
    const port = ports[0]!;
    // The port is free again: a server can listen on it.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((resolve) => probe.close(resolve));
  });

  it('does nothing once its signal has aborted', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const { result, ports } = await connectionsDuring(() => warmUpstreamClients(stopped.signal));
    expect(result.served).toEqual([]);
    expect(ports).toEqual([]);
  });
});
