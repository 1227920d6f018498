import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, OversizedRequestError, RequestTimeoutError } from '../errors/api-error.js';
import { type EnvelopeStyle, renderError } from '../errors/error-envelope.js';
import { noteErrorCode } from './metrics.js';
import { newRequestId } from './request-id.js';

/** CCIP routes answer in the ERC-3668 shape; everything else in the full envelope. */
export function envelopeStyleFor(url: string): EnvelopeStyle {
  return url === '/ccip' || url.startsWith('/ccip/') || url.startsWith('/ccip?') ? 'ccip' : 'full';
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) as ApiErrors: a caller's mistake is a 4xx. */
function fromFastifyError(err: FastifyError): ApiError | undefined {
  const status = err.statusCode ?? 500;
  if (err.validation) return new ApiError('INVALID_PARAMETER', err.message);
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
  if (status === 404) return new ApiError('NOT_FOUND', 'no such route');
  if (status >= 400 && status < 500) return new ApiError('INVALID_PARAMETER', err.message);
  return undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const rendered = renderError(err, envelopeStyleFor(request.url));
  noteErrorCode(reply, err instanceof ApiError ? err.code : 'INTERNAL_ERROR');
  return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
}

/**
 * Errors fastify raises before a route runs (FST_ERR_BAD_URL: a path parameter that is not valid percent-encoding):
 * the onRequest hooks have not run, so the headers every answer has (`answerHeaders`, X-Request-Id) are set here.
 */
export function sendFrameworkError(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  answerHeaders: Readonly<Record<string, string>>,
): FastifyReply {
  reply.headers(answerHeaders).header('X-Request-Id', request.id);
  return send(request, reply, fromFastifyError(err) ?? new ApiError('INVALID_PARAMETER', 'malformed request'));
}

/** The method and target at the start of the bytes Node's parser refused (`GET /ccip/… HTTP/1.1`), when they start there. */
function refusedRequest(err: NodeJS.ErrnoException): { method: string; target: string } {
  const raw = (err as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return { method: '', target: '' };
  const start = /^([A-Z]{3,7}) (\S{1,16})/.exec(raw.toString('latin1', 0, 32));
  return { method: start?.[1] ?? '', target: start?.[2] ?? '' };
}

/** Node's refusal codes, and what each is answered with. */
function refusal(code: string | undefined): { error: ApiError; reason: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      error: new OversizedRequestError('request URL or headers are too large'),
      reason: 'Request Header Fields Too Large',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { error: new RequestTimeoutError('the request was not received in time'), reason: 'Request Timeout' };
  }
  return { error: new ApiError('INVALID_PARAMETER', 'malformed HTTP request'), reason: 'Bad Request' };
}

/**
 * Requests Node's HTTP parser refuses before fastify routes them (headers or URL too large, bad framing, not sent
 * within the headers or request timeout): answered in the envelope too, with the headers every answer has
 * (`answerHeaders`, a fresh X-Request-Id), written on the raw socket since no reply object exists yet. A CCIP path
 * gets the ERC-3668 shape when the refused bytes still show it (Node hands over the chunk it was parsing); a HEAD
 * gets no body.
 */
export function clientErrorResponse(
  err: NodeJS.ErrnoException,
  answerHeaders: Readonly<Record<string, string>> = {},
): string {
  const { error, reason } = refusal(err.code);
  const refused = refusedRequest(err);
  const rendered = renderError(error, envelopeStyleFor(refused.target));
  const body = JSON.stringify(rendered.body);
  const head = [
    `HTTP/1.1 ${rendered.status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${newRequestId()}`,
    ...Object.entries({ ...answerHeaders, ...rendered.headers }).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${refused.method === 'HEAD' ? '' : body}`;
}

/**
 * Errors raised on /graphql around its pipeline. Fastify's own (a body too large or of another type) are answered in
 * GraphQL's error shape, `{ errors: [{ message, extensions: { code } }] }`, with their status; an ApiError the
 * pipeline throws (an x402 offer, a failed settlement) in the envelope, whose `accepts` x402 clients read.
 */
export function sendGraphqlRequestError(
  err: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (err instanceof ApiError) return send(request, reply, err);
  const apiError = fromFastifyError(err);
  if (!apiError) request.log.error({ err }, 'request failed');
  const { status, headers } = renderError(apiError ?? err, 'full');
  const code = apiError?.code ?? 'INTERNAL_ERROR';
  noteErrorCode(reply, code);
  const message = apiError?.message ?? 'internal server error';
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(`${JSON.stringify({ errors: [{ message, extensions: { code } }] })}\n`);
}

/** The one place errors become responses (with src/errors/error-envelope.ts rendering the body). */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    const apiError = err instanceof ApiError ? err : fromFastifyError(err);
    if (!apiError || apiError.status >= 500) {
      request.log.error({ err }, 'request failed');
    }
    return send(request, reply, apiError ?? err);
  });
  app.setNotFoundHandler((request, reply) =>
    send(
      request,
      reply,
      new ApiError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0].slice(0, 200)}`),
    ),
  );
}
