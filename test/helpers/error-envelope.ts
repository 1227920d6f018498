import { expect } from 'vitest';

/** The full error envelope of an /api route (docs/api-contract.md#error-envelopes). */
export interface ErrorEnvelope {
  error: true;
  code: string;
  message: string;
  timestamp: string;
}

/**
 * Asserts that a response is the documented error envelope with this status and code: exactly `error`, `code`,
 * `message` and an ISO `timestamp`, nothing else. Returns the body for further checks of its message.
 * @example await expectEnvelope(await server.get('/api/ens/resolve/eth'), 400, 'INVALID_PARAMETER')
 */
export async function expectEnvelope(res: Response, status: number, code: string): Promise<ErrorEnvelope> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ErrorEnvelope;
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'timestamp']);
  expect(body).toMatchObject({ error: true, code, message: expect.any(String) });
  expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  return body;
}
