import type { FastifyInstance } from 'fastify';

/** One HTTP request as a test writes it: a path on the server, headers, and a body already encoded (or none). */
export interface TestRequest {
  method?: string;
  /** Path and query, e.g. `/api/price/ETH?currency=usd`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/**
 * The headers Node's fetch adds to every request it sends (undici): a request injected with them reaches the routes
 * as one from `fetch(server.url…)` does, so a test reads the same whichever way its call travels.
 */
const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
};

/** Statuses whose answer has no body (the Fetch standard's null body statuses), and HEAD's. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Sends requests to a Fastify app in process (`app.inject`, light-my-request): no socket, no port, no connection pool.
 * The answer is a WHATWG `Response`, as `fetch` returns, so `status`, `headers.get`, `text()`, `json()` and
 * `arrayBuffer()` read alike. `host` is the Host header a socket client would send (the listen address); the caller's
 * address is 127.0.0.1, as a client on the loopback's is.
 * @example const send = injectedFetch(server.app, '127.0.0.1:4000'); const res = await send({ path: '/health' })
 */
export function injectedFetch(app: FastifyInstance, host: string): (request: TestRequest) => Promise<Response> {
  return async ({ method = 'GET', path, headers = {}, body }) => {
    const sent: Record<string, string> = { host, ...FETCH_DEFAULT_HEADERS };
    for (const [name, value] of Object.entries(headers)) sent[name.toLowerCase()] = value;
    // fetch labels a string body that names no type as text.
    if (typeof body === 'string' && sent['content-type'] === undefined)
      sent['content-type'] = 'text/plain;charset=UTF-8';
    const answer = await app.inject({
      method: method as 'GET',
      url: path,
      headers: sent,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : Buffer.from(body) }),
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(one));
    }
    const noBody = NULL_BODY_STATUSES.has(answer.statusCode) || method.toUpperCase() === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers: answerHeaders,
    });
  };
}
