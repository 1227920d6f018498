import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { custom, HttpRequestError, RpcRequestError, TimeoutError, type Transport } from 'viem';

/** Largest JSON-RPC reply read (an eth_getLogs over many blocks is the big one); more is a failed request. */
const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** What the transport reports: each method before it leaves, each round trip's latency after. */
export interface JsonRpcObservers {
  /** Each request's method and params, before it leaves. */
  onRequest?: (method: string, params: unknown) => void;
  /** ok is false for network errors, timeouts and non-2xx answers. */
  observe?: (latencyMs: number, ok: boolean) => void;
}

interface JsonRpcReply {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** The JSON-RPC answer in a reply body: an object with a `result` or an `error`; undefined for anything else. */
function parseReply(text: string): JsonRpcReply | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return 'result' in parsed || 'error' in parsed ? (parsed as JsonRpcReply) : undefined;
}

/**
 * viem's HTTP JSON-RPC transport, spoken over Node's own http/https with keep-alive connections instead of fetch:
 * the same requests, replies and viem errors (RpcRequestError for a JSON-RPC error, HttpRequestError for a failed
 * round trip, a non-2xx answer or a body that is no JSON-RPC answer, TimeoutError when the whole round trip takes
 * longer than `timeoutMs`), so retries and revert decoding behave as with `http()`, at a fraction of fetch's per-call
 * cost on the hot path (every ENS read asks the head block first).
 * @example createPublicClient({ chain, transport: jsonRpcTransport('http://127.0.0.1:8545', { timeoutMs: 5000, retryCount: 0 }) })
 */
export function jsonRpcTransport(
  url: string,
  options: { timeoutMs: number; retryCount: number; observers?: JsonRpcObservers },
): Transport {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  let nextId = 1;

  const post = (body: { jsonrpc: '2.0'; id: number; method: string; params: unknown }): Promise<JsonRpcReply> => {
    const payload = JSON.stringify(body);
    options.observers?.onRequest?.(body.method, body.params);
    const startedAt = performance.now();
    return new Promise<JsonRpcReply>((resolve, reject) => {
      let settled = false;
      let deadline: NodeJS.Timeout | undefined;
      const finish = (ok: boolean, outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        options.observers?.observe?.(performance.now() - startedAt, ok);
        outcome();
      };
      const req = send(
        target,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_REPLY_BYTES) {
              res.destroy();
              finish(false, () =>
                reject(new HttpRequestError({ body, details: `reply larger than ${MAX_REPLY_BYTES} bytes`, url })),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', (cause) => finish(false, () => reject(new HttpRequestError({ body, cause, url }))));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            const reply = parseReply(text);
            const ok = status >= 200 && status < 300;
            // A non-2xx answer carrying a JSON-RPC error still goes through JSON-RPC error handling, as with http().
            const rpcError =
              typeof reply?.error?.code === 'number' && typeof reply.error.message === 'string' ? reply : undefined;
            if (ok && reply) return finish(true, () => resolve(reply));
            if (!ok && rpcError) return finish(false, () => resolve(rpcError));
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
            finish(false, () =>
              reject(
                new HttpRequestError({
                  body,
                  details: ok
                    ? text
                      ? 'reply is not a JSON-RPC answer'
                      : 'reply is empty'
                    : text.slice(0, 500) || (res.statusMessage ?? ''),
                  headers,
                  status,
                  url,
                }),
              ),
            );
          });
        },
      );
      // A total deadline, as http()'s: a socket timeout fires only when idle, so a trickling reply would outlive it.
      deadline = setTimeout(() => {
        req.destroy();
        finish(false, () => reject(new TimeoutError({ body, url })));
      }, options.timeoutMs);
      req.on('error', (cause) => finish(false, () => reject(new HttpRequestError({ body, cause, url }))));
      req.end(payload);
    });
  };

  return custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        const body = { jsonrpc: '2.0' as const, id: nextId++, method, params };
        const reply = await post(body);
        if (reply.error) throw new RpcRequestError({ body, error: reply.error, url });
        return reply.result;
      },
    },
    { key: 'http', name: 'HTTP JSON-RPC', retryCount: options.retryCount },
  );
}
