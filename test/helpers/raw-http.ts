import { connect, type Socket } from 'node:net';

/** One TCP connection to a server, written to by hand: what came back, and when the server closed it. */
export interface RawConnection {
  socket: Socket;
  /** Everything received so far (latin1). */
  received(): string;
  /** Resolves with everything received once the connection is closed (by either side). */
  closed: Promise<string>;
  /** Resolves once `text` has been received (it may still be open). */
  receivedText(text: string): Promise<string>;
}

/**
 * Opens a connection to `url`'s host and port and writes `request` (raw HTTP/1.1) once connected; from
 * `localAddress` when given (on Linux every 127.x.y.z is a loopback source of its own).
 * @example const c = rawConnection(server.url, 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'); await c.closed
 */
export function rawConnection(url: string, request = '', localAddress?: string): RawConnection {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) });
  let data = '';
  const waiters: { text: string; resolve: (all: string) => void }[] = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    data += chunk;
    for (const w of waiters.splice(0)) {
      if (data.includes(w.text)) w.resolve(data);
      else waiters.push(w);
    }
  });
  // A reset is a close too; what arrived before it is what the test looks at.
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  if (request !== '') socket.write(request, 'latin1');
  return {
    socket,
    received: () => data,
    closed,
    receivedText: (text) =>
      data.includes(text) ? Promise.resolve(data) : new Promise((resolve) => waiters.push({ text, resolve })),
  };
}

/** The status line, headers (names lower-cased) and body of a raw HTTP/1.1 answer. */
export function parseRawAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end === -1 ? raw.length : end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine?.split(' ')[1]), headers, body: end === -1 ? '' : raw.slice(end + 4) };
}
