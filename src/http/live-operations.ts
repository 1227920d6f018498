import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { GraphContext } from '../../subgraphs/shared/graph-context.js';
import type { AccessGate } from '../access/access-gate.js';
import type { AccessRequest } from '../access/identify-caller.js';
import { PAYMENT_HEADERS } from '../access/x402-presented-payment.js';
import type { AppConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { asGraphQLError, formatErrors, newResponseHead, refusalError } from './graphql-coded-errors.js';
import type { GraphqlDocuments } from './graphql-documents.js';
import { type OperationCharges, operationRoute } from './operation-charge.js';
import { runAdmitted } from './run-admitted.js';

/** One GraphQL operation sent over a streaming transport (graphql-sse, graphql-ws). */
export interface LiveOperationRequest {
  query: string;
  variables?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
  /** Who is calling, as the request (or the WebSocket's upgrade and connection parameters) says. */
  access: AccessRequest;
  context: () => GraphContext;
}

/**
 * Where a subscription result's event sits in the replay log (LiveEvent.position): the SSE transport writes it as the
 * message's `id:`. A symbol, so no transport serialises it into the result.
 */
export const EVENT_POSITION = Symbol('live event position');

/** One result of a subscription: an event's, with its position, or a terminal error. */
export type LiveResult = ExecutionResult & { [EVENT_POSITION]?: string };

/**
 * graphql-js's subscribe, with each result carrying its event's position: the field's source stream, each event
 * executed as the root value of the operation, in order. Like graphql-js's own mapping (and unlike a generator), its
 * return() reaches the source at once, even while a next() waits on it: the source's end settles that next().
 */
async function subscribeWithPositions(
  args: ExecutionArgs,
): Promise<ExecutionResult | AsyncIterableIterator<LiveResult>> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const events = source[Symbol.asyncIterator]();
  const toResult = async (step: IteratorResult<unknown>): Promise<IteratorResult<LiveResult>> => {
    if (step.done) return step;
    const event = step.value as { position?: unknown } | undefined;
    const result: LiveResult = await execute({ ...args, rootValue: event });
    if (typeof event?.position === 'string') result[EVENT_POSITION] = event.position;
    return { value: result, done: false };
  };
  const results: AsyncIterableIterator<LiveResult> = {
    next: () => events.next().then(toResult),
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => results,
  };
  return results;
}

/** What a transport sends: a refusal before anything ran (with the HTTP status it would have), or the results. */
export type LiveOperationAnswer =
  | { refused: { status: number; headers: Map<string, string>; errors: GraphQLFormattedError[] } }
  | { result: ExecutionResult | AsyncIterable<LiveResult> };

/** Streaming operations of one instance: what the transports start, and what shutdown ends. */
export interface LiveOperations {
  run(request: LiveOperationRequest): Promise<LiveOperationAnswer>;
  /** Ends every open subscription: each stream completes, as the transports then tell their clients. */
  completeAll(): void;
  /** Subscriptions open now. */
  readonly open: number;
}

function refusedAnswer(error: unknown): LiveOperationAnswer {
  const head = newResponseHead();
  const graphqlError = error instanceof ApiError ? refusalError(error) : asGraphQLError(error);
  const errors = formatErrors([graphqlError], head);
  return { refused: { status: head.status ?? 500, headers: head.headers, errors } };
}

/** The caller's headers again, without a payment: an x402 payment pays for the start, never for a later count. */
function withoutPayment(access: AccessRequest): AccessRequest {
  const headers = { ...access.headers };
  for (const name of PAYMENT_HEADERS) delete headers[name];
  // A new object: the gate identifies it afresh, so a session that ended or a key that was revoked is seen.
  return { ip: access.ip, headers };
}

/**
 * A terminal error event of a stream: what ended it, in GraphQL's error shape, with the HTTP status the refusal would
 * have had (mid-stream, no response status can say it).
 */
function terminal(error: unknown): ExecutionResult {
  const graphqlError = error instanceof ApiError ? refusalError(error) : asGraphQLError(error);
  const head = newResponseHead();
  const [formatted] = formatErrors([graphqlError], head);
  const status = head.status ?? formatted!.extensions?.status;
  return { errors: [{ ...formatted!, extensions: { ...formatted!.extensions, status } } as never] };
}

/** A subscription's events, re-admitted every `eventsPerCall` events; ends on a refusal, the source's error or `ended`. */
async function* metered(
  eventsPerCall: number,
  events: AsyncIterator<ExecutionResult>,
  readmit: () => Promise<unknown>,
  ended: Promise<void>,
): AsyncGenerator<ExecutionResult> {
  const done = ended.then(() => ({ done: true, value: undefined }) as const);
  let delivered = 0;
  try {
    while (true) {
      let next: IteratorResult<ExecutionResult>;
      try {
        next = await Promise.race([events.next(), done]);
      } catch (err) {
        yield terminal(err);
        return;
      }
      if (next.done) return;
      yield next.value;
      delivered += 1;
      if (delivered % eventsPerCall === 0) {
        try {
          await readmit();
        } catch (refusal) {
          yield terminal(refusal);
          return;
        }
      }
    }
  } finally {
    await events.return?.();
  }
}

/**
 * Open subscriptions per caller on this instance: `hold(key)` takes a place (RATE_LIMITED past `max`) and returns the
 * function that gives it back.
 */
function subscriptionCap(max: number): (callerKey: string) => () => void {
  const openByCaller = new Map<string, number>();
  return (callerKey) => {
    const held = openByCaller.get(callerKey) ?? 0;
    if (held >= max) {
      throw new ApiError(
        'RATE_LIMITED',
        `${held} subscriptions are open for this caller, the most one may hold (LIVE_MAX_SUBSCRIPTIONS_PER_CALLER): end one first`,
        { limit: max },
      );
    }
    openByCaller.set(callerKey, held + 1);
    return () => {
      const left = (openByCaller.get(callerKey) ?? 1) - 1;
      if (left > 0) openByCaller.set(callerKey, left);
      else openByCaller.delete(callerKey);
    };
  };
}

/**
 * The streaming transports' one way to run an operation, beside the /graphql pipeline (graphql-pipeline.ts) and with
 * its documents, limits, charges and access gate: the document is parsed and validated once, the operation admitted
 * at its tier and price (docs/live-data.md#access-and-cost: a subscription counts one call as it starts and one more each
 * LIVE_EVENTS_PER_CALL events; a refusal then ends the stream with a terminal error), and a caller holds at most
 * LIVE_MAX_SUBSCRIPTIONS_PER_CALLER open subscriptions on this instance.
 * @example const answer = await operations.run({ query, variables, access, context })
 */
export function liveOperations(deps: {
  schema: GraphQLSchema;
  access: AccessGate;
  charges: OperationCharges;
  documents: GraphqlDocuments;
  limits: AppConfig['live'];
}): LiveOperations {
  const holdSubscription = subscriptionCap(deps.limits.maxSubscriptionsPerCaller);
  const open = new Set<{ complete: () => void }>();

  const startSubscription = async (
    request: LiveOperationRequest,
    document: DocumentNode,
    route: ReturnType<typeof operationRoute>,
  ): Promise<LiveOperationAnswer> => {
    let release: () => void;
    try {
      release = holdSubscription((await deps.access.identify(request.access)).key);
    } catch (err) {
      return refusedAnswer(err);
    }
    let keep = false;
    try {
      const { value } = await runAdmitted<LiveOperationAnswer>({
        admit: () => deps.access.admit(request.access, route),
        run: async () => {
          const result = await subscribeWithPositions({
            schema: deps.schema,
            document,
            contextValue: request.context(),
            variableValues: request.variables ?? undefined,
            operationName: request.operationName ?? undefined,
          });
          if (!(Symbol.asyncIterator in result)) return { result };
          let complete = () => {};
          const ended = new Promise<void>((resolve) => {
            complete = resolve;
          });
          const entry = { complete };
          open.add(entry);
          keep = true;
          const events = metered(
            deps.limits.eventsPerCall,
            result,
            () => deps.access.admit(withoutPayment(request.access), route).then((d) => d.release()),
            ended,
          );
          const end = () => {
            open.delete(entry);
            release();
            // A stream returned before its first read never ran its own cleanup: the source is let go here too.
            void result.return?.();
          };
          return { result: endingOnce(events, end) };
        },
        paid: (answer) => 'result' in answer && Symbol.asyncIterator in answer.result,
        refused: refusedAnswer,
      });
      return value;
    } catch (err) {
      return refusedAnswer(err);
    } finally {
      if (!keep) release();
    }
  };

  return {
    async run(request) {
      const prepared = deps.documents.prepare(request.query);
      if ('errors' in prepared) return { result: { errors: prepared.errors } };
      const operation: OperationDefinitionNode | undefined = prepared.operation(request.operationName ?? undefined);
      if (!operation) return { result: { errors: [asGraphQLError(new Error('no operation to run'))] } };
      const route = operationRoute(operation, prepared.document, deps.charges);
      if (operation.operation === 'subscription') return startSubscription(request, prepared.document, route);
      // A query or mutation sent over a stream: admitted and run as on POST /graphql, answered as one result.
      const { value } = await runAdmitted<LiveOperationAnswer>({
        admit: () => deps.access.admit(request.access, route),
        run: async () => ({
          result: await execute({
            schema: deps.schema,
            document: prepared.document,
            contextValue: request.context(),
            variableValues: request.variables ?? undefined,
            operationName: request.operationName ?? undefined,
          }),
        }),
        paid: (answer) => 'result' in answer && !('errors' in answer.result && answer.result.errors?.length),
        refused: refusedAnswer,
      }).catch((err: unknown) => ({ value: refusedAnswer(err) }));
      return value;
    },
    completeAll() {
      for (const entry of [...open]) entry.complete();
    },
    get open() {
      return open.size;
    },
  };
}

/**
 * The same stream, with `end` run once when it ends: read to its end, or returned or thrown into by its transport,
 * even before its first read (a generator returned then never runs its `finally`).
 */
function endingOnce<T>(events: AsyncGenerator<T>, end: () => void): AsyncIterableIterator<T> {
  let ended = false;
  const endOnce = () => {
    if (ended) return;
    ended = true;
    end();
  };
  return {
    async next() {
      const step = await events.next().catch((err: unknown) => {
        endOnce();
        throw err;
      });
      if (step.done) endOnce();
      return step;
    },
    async return(value?: unknown) {
      endOnce();
      return events.return(value as undefined);
    },
    async throw(error?: unknown) {
      endOnce();
      return events.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
