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
