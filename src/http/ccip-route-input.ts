import type { FastifyRequest } from 'fastify';
import type { RouteInput } from '../../rest-compat/route-row.js';
import { ccipRequestError } from '../ccip/ccip-request-error.js';
import { ApiError, isApiError } from '../errors/api-error.js';

const CCIP_FIELDS = ['sender', 'data'] as const;

function lacksSenderOrData(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return true;
  return CCIP_FIELDS.some((field) => (body as Record<string, unknown>)[field] === undefined);
}

/**
 * Parses a CCIP route's input with the CCIP codes of docs/api-contract.md#errors: a request without sender or data is
 * 400 INVALID_REQUEST, any
 * other malformed sender or data 400 CCIP_ERROR (ERC-3668 clients read `message`).
 * @example const input = withCcipCodes(() => parseRouteInput(row.params, request), request)
 */
export function withCcipCodes(parse: () => RouteInput, request: FastifyRequest): RouteInput {
  try {
    return parse();
  } catch (err) {
    if (isApiError(err) && err.code === 'INVALID_PARAMETER' && lacksSenderOrData(request))
      throw new ApiError('INVALID_REQUEST', 'CCIP request lacks sender or data');
    throw ccipRequestError(err);
  }
}
