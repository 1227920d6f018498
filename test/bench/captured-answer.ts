import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { BareRouteSpec } from './bare-server.js';
import type { BenchRequest } from './bench-routes.js';

/** One answer exactly as it came over the wire: status, every header in order, body. */
export interface CapturedAnswer {
  status: number;
  /** [name, value] pairs as sent (the raw header list: names in their case, in their order, repeats kept). */
  headers: [string, string][];
  body: Buffer;
}

export function requestInit(route: BenchRequest): { method: string; headers: Record<string, string>; body?: string } {
  const headers = { ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}), ...route.headers };
  return { method: route.method, headers, ...(route.body !== undefined ? { body: route.body } : {}) };
}

/**
 * Sends `route` once over a keep-alive connection (as autocannon does, so the answer carries the same `Connection`
 * and `Keep-Alive` headers it gets under load) and returns the raw answer.
 */
export async function captureAnswer(baseUrl: string, route: BenchRequest): Promise<CapturedAnswer> {
  const init = requestInit(route);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await new Promise<CapturedAnswer>((resolve, reject) => {
      const req = request(`${baseUrl}${route.path}`, { method: init.method, headers: init.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end(init.body);
    });
  } finally {
    agent.destroy();
  }
}

/** The first value of header `name` (any case). */
export function headerOf(answer: CapturedAnswer, name: string): string | undefined {
  return answer.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Headers every engine (node:http, fastify) writes itself from the body and the connection. */
const ENGINE_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'content-type',
]);

/**
 * What a bare server needs to answer exactly as the service did: its status, every header the engine does not write
 * itself (with the service's values), the content type, the body, how the body is framed (length or chunks) and the
 * keep-alive timeout the service announces. `bodyOnly` leaves the service's own headers out (the second baseline).
 */
export function bareSpecOf(
  route: BenchRequest,
  answer: CapturedAnswer,
  engine: 'fastify' | 'node:http',
  bodyOnly = false,
): BareRouteSpec {
  const keepAlive = /timeout=(\d+)/.exec(headerOf(answer, 'keep-alive') ?? '')?.[1];
  return {
    method: route.method,
    path: route.path.split('?')[0]!,
    status: answer.status,
    contentType: headerOf(answer, 'content-type') ?? 'application/octet-stream',
    bodyBase64: answer.body.toString('base64'),
    engine,
    chunked: headerOf(answer, 'transfer-encoding') === 'chunked',
    ...(keepAlive !== undefined ? { keepAliveTimeoutS: Number(keepAlive) } : {}),
    ...(bodyOnly
      ? {}
      : { headers: answer.headers.filter(([name]) => !ENGINE_HEADERS.has(name.toLowerCase())) as [string, string][] }),
  };
}

/** The header names of an answer, lower-cased and sorted: what two answers must share to be the same answer. */
export function headerNames(answer: CapturedAnswer): string {
  return answer.headers
    .map(([name]) => name.toLowerCase())
    .sort()
    .join(', ');
}

/**
 * Variables the service needs to run with NODE_ENV=production on loopback: a production configuration is live, so it
 * refuses the demo receiver, a generated signer key and secret, and the embedded facilitator unless told it is staging.
 * Fresh random values per run: nobody holds them, nothing is paid.
 */
export function productionBenchEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    X402_RECEIVER: `0x${randomBytes(20).toString('hex')}`,
    X402_STAGING_EMBEDDED_FACILITATOR: 'true',
    CCIP_SIGNER_KEY: `0x${randomBytes(32).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
}
