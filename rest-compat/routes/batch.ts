import { z } from 'zod';
import type { RouteRow } from '../route-row.js';

/**
 * The contract leaves the batch size open (docs/api-contract.md#other-constants); 20 inner requests keep one batch
 * within a Heavy call's cost.
 */
export const MAX_BATCH_REQUESTS = 20;
/** Longest inner path (with its query string) a batch item may name. */
export const MAX_BATCH_PATH_LENGTH = 2048;

const batchBody = z
  .object({
    requests: z
      .array(
        z.object({
          path: z
            .string()
            .min(1)
            .max(MAX_BATCH_PATH_LENGTH)
            .describe(
              'a GET path of this API with its query string, relative: /api/price/ETH?… (never an absolute URL)',
            ),
        }),
      )
      .min(1, 'must hold at least one request')
      .max(MAX_BATCH_REQUESTS, `must hold at most ${MAX_BATCH_REQUESTS} requests`)
      .describe(`1 to ${MAX_BATCH_REQUESTS} requests, answered in order`),
  })
  .meta({ example: { requests: [{ path: '/api/price/ETH' }, { path: '/api/ens/resolve/alice.eth' }] } });

const batchResponse = {
  type: 'object',
  required: ['results', 'count'],
  properties: {
    results: {
      type: 'array',
      description: 'one per request, in order',
      items: {
        type: 'object',
        required: ['path', 'status', 'body'],
        properties: {
          path: { type: 'string', description: 'the path as asked' },
          status: { type: 'integer', description: 'the HTTP status the path answered on its own' },
          body: { description: "the path's JSON body (the error envelope on failure); text for a non-JSON document" },
        },
      },
    },
    count: { type: 'integer' },
  },
};

/** docs/api-contract.md#market-wallet-and-utilities: POST /api/batch, Heavy tier, counted once. */
export const batchRoutes: RouteRow[] = [
  {
    kind: 'batch',
    id: 'runBatch',
    method: 'POST',
    path: '/api/batch',
    tag: 'Utilities',
    summary: `Up to ${MAX_BATCH_REQUESTS} GET requests of this API in one call, answered in order with each one's status and body`,
    description: [
      `The batch counts as ONE Heavy request (and costs one price); the requests inside are not counted again. Each inner path runs`,
      "through the same route table, validation and access rules as a call of its own, with the caller's credentials",
      '(`X-API-Key`, `Authorization`) and address: bad input answers its own 400 inside the results, never the whole batch.',
      'Only GET routes of the table may be batched; a POST route (such as `/api/batch` itself), an Auth or Write tier route,',
      'a path that is not a route of the table, or an absolute URL is refused per item. More than',
      `${MAX_BATCH_REQUESTS} requests is a 400.`,
    ].join(' '),
    tier: 'heavy',
    price: '0.02',
    maxRequests: MAX_BATCH_REQUESTS,
    params: { body: batchBody },
    responseSchema: batchResponse,
  },
];
