import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRawAnswer, type RawConnection, rawConnection } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Small enough to reach with a few sockets; the timeouts short enough to see them bite, nothing asserts on time. */
const MAX_CONNECTIONS = 6;

describe('connections: a cap with a clear refusal, a short idle timeout, headers and request timeouts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      KEEP_ALIVE_TIMEOUT_MS: '300',
      HEADERS_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an idle keep-alive connection is closed by the server after KEEP_ALIVE_TIMEOUT_MS (Fastify would wait 72 s)', async () => {
    const client = rawConnection(server.url, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const all = await client.closed;
    expect(parseRawAnswer(all)).toMatchObject({ status: 200, headers: { connection: 'keep-alive' } });
  });

  it('a client that never finishes its headers is answered 408 in the envelope and closed after HEADERS_TIMEOUT_MS', async () => {
    const client = rawConnection(server.url, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    const answer = parseRawAnswer(await client.closed);
    expect(answer.status).toBe(408);
    expect(answer.headers).toMatchObject({ connection: 'close', 'x-content-type-options': 'nosniff' });
    expect(JSON.parse(answer.body)).toMatchObject({ error: true, code: 'INVALID_REQUEST' });
  });

  it('past MAX_CONNECTIONS a new connection is answered 503 with Connection: close, not reset; once some close, calls go through', async () => {
    // Each holds a request whose body has not all arrived: open, and not idle.
    const held: RawConnection[] = Array.from({ length: MAX_CONNECTIONS + 4 }, () =>
      rawConnection(
        server.url,
        'POST /api/ens/bulk HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      ),
    );
    // At least the four past the limit are refused (idle sockets of earlier tests may hold places too).
    const refused = await new Promise<RawConnection[]>((resolve) => {
      const check = () => {
        const answered = held.filter((c) => c.received().includes('\r\n\r\n'));
        if (answered.length >= 4) resolve(answered);
        else setTimeout(check, 20);
      };
      check();
    });
    try {
      for (const connection of refused) {
        const answer = parseRawAnswer(await connection.closed);
        expect(answer.status).toBe(503);
        expect(answer.headers).toMatchObject({
          connection: 'close',
          'retry-after': '1',
          'x-content-type-options': 'nosniff',
        });
        expect(answer.headers['x-request-id']).toMatch(/\S/);
        expect(JSON.parse(answer.body)).toMatchObject({ error: true, code: 'SERVICE_UNAVAILABLE' });
      }
      expect(refused.length).toBeLessThan(held.length);
    } finally {
      for (const connection of held) connection.socket.destroy();
    }
    // The server counts a connection out when it sees it close: soon a call goes through again.
    let status = 0;
    while (status !== 200) {
      status = (await fetch(`${server.url}/api/health`, { headers: { connection: 'close' } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
  });
});

/** A request whose body has not all arrived: its connection is open and busy, not idle. */
const HELD_REQUEST =
  'POST /api/ens/bulk HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{';

/** Resolves once `done()` holds, looking every 20 ms. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 20));
}

describe('connections: each client address gets a share, and silent sockets hold no place for long', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      MAX_CONNECTIONS: '8',
      MAX_CONNECTIONS_PER_ADDRESS: '3',
      FIRST_BYTE_TIMEOUT_MS: '200',
      // Long: a silent socket closed meanwhile was closed by the first-byte timeout, not this one.
      HEADERS_TIMEOUT_MS: '60000',
      REQUEST_TIMEOUT_MS: '60000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('one address (127.0.0.2) opening many busy connections cannot starve another (127.0.0.1); its extra ones are answered 503', async () => {
    const hog = Array.from({ length: 12 }, () => rawConnection(server.url, HELD_REQUEST, '127.0.0.2'));
    try {
      // Past its 3, each is answered 503 and closed.
      await until(() => hog.filter((c) => c.received().includes('\r\n\r\n')).length >= 9);
      const refused = hog.filter((c) => c.received().includes('\r\n\r\n'));
      expect(refused).toHaveLength(9);
      const answer = parseRawAnswer(await refused[0]!.closed);
      expect(answer).toMatchObject({ status: 503, headers: { connection: 'close', 'retry-after': '1' } });
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('your address has 3 connections open'),
      });
      // Another address is served meanwhile, on connections of its own.
      const others = await Promise.all(
        Array.from({ length: 3 }, () => fetch(`${server.url}/api/health`, { headers: { connection: 'close' } })),
      );
      expect(others.map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      for (const connection of hog) connection.socket.destroy();
    }
  });

  it('sockets that send nothing are closed by the first-byte timeout (long before the headers timeout), and their places go to others', async () => {
    const silent = Array.from({ length: 8 }, (_, i) => rawConnection(server.url, '', `127.0.0.${3 + i}`));
    try {
      const closed = await Promise.race([
        Promise.all(silent.map((c) => c.closed)).then(() => 'closed by the server'),
        new Promise((r) => setTimeout(r, 20_000)).then(() => 'still open'),
      ]);
      expect(closed).toBe('closed by the server');
      expect(silent.every((c) => c.received() === '')).toBe(true);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      for (const connection of silent) connection.socket.destroy();
    }
  });

  it('a client that has started its headers keeps the headers timeout to finish them', async () => {
    const slow = rawConnection(server.url, 'GET /api/health HTTP/1.1\r\n', '127.0.0.20');
    await new Promise((r) => setTimeout(r, 600));
    slow.socket.write('Host: localhost\r\nConnection: close\r\n\r\n');
    expect(parseRawAnswer(await slow.closed).status).toBe(200);
  });
});
