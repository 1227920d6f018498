import type { ExecutionResult } from 'graphql';
import type { InProcessGateway } from '../../gateway/in-process-gateway.js';
import type { OperationSurface, OperationTallies } from '../../observability/operation-tallies.js';
import { inSpan, tracingEnabled } from '../../observability/tracer.js';

/** The code of a failed run: an ApiError's, or INTERNAL_ERROR for anything else thrown. */
function thrownCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'INTERNAL_ERROR';
}

/**
 * THE place a GraphQL operation is observed, whichever surface runs it: one `graphql <name>` span (the parent of its
 * loader batches) and one run in `graphql_operations_total` / `graphql_operation_duration_seconds`, with the error
 * code `errorCodeOf` reads from its result (or the thrown error's). A run that answers at once (an operation whose
 * resolvers return no promise, `{ __typename }`) is tallied and returned at once when tracing is off: no promise made
 * and no microtask turn waited for it.
 * @example await observeOperation(tallies, { surface: 'graphql', name }, () => execute(…), firstErrorCode)
 */
export function observeOperation<T>(
  tallies: OperationTallies,
  p: { surface: OperationSurface; name: string | null | undefined },
  run: () => Promise<T>,
  errorCodeOf: (result: T) => string | undefined,
): Promise<T>;
export function observeOperation<T>(
  tallies: OperationTallies,
  p: { surface: OperationSurface; name: string | null | undefined },
  run: () => T | Promise<T>,
  errorCodeOf: (result: T) => string | undefined,
): T | Promise<T>;
export function observeOperation<T>(
  tallies: OperationTallies,
  p: { surface: OperationSurface; name: string | null | undefined },
  run: () => T | Promise<T>,
  errorCodeOf: (result: T) => string | undefined,
): T | Promise<T> {
  const operation = tallies.label(p.name);
  if (!tracingEnabled()) return tallied(tallies, p.surface, operation, run, errorCodeOf);
  const attributes = { 'graphql.operation.name': operation, 'api.surface': p.surface };
  return inSpan(`graphql ${operation}`, attributes, async (span) => {
    const started = performance.now();
    try {
      const result = await run();
      const code = errorCodeOf(result);
      if (code !== undefined) span.setAttribute('error.code', code);
      tallies.record(p.surface, operation, (performance.now() - started) / 1000, code);
      return result;
    } catch (err) {
      tallies.record(p.surface, operation, (performance.now() - started) / 1000, thrownCode(err));
      throw err;
    }
  });
}

/**
 * {@link observeOperation} without tracing: the run and its tally alone (no span, no attributes: every call pays this),
 * synchronous when the run is.
 */
function tallied<T>(
  tallies: OperationTallies,
  surface: OperationSurface,
  operation: string,
  run: () => T | Promise<T>,
  errorCodeOf: (result: T) => string | undefined,
): T | Promise<T> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let result: T | Promise<T>;
  try {
    result = run();
  } catch (err) {
    tallies.record(surface, operation, seconds(), thrownCode(err));
    throw err;
  }
  if (!(result instanceof Promise)) {
    tallies.record(surface, operation, seconds(), errorCodeOf(result));
    return result;
  }
  return result.then(
    (value) => {
      tallies.record(surface, operation, seconds(), errorCodeOf(value));
      return value;
    },
    (err: unknown) => {
      tallies.record(surface, operation, seconds(), thrownCode(err));
      throw err;
    },
  );
}

/** The code of an execution result's first error (`extensions.code`), undefined when it has none. */
export function firstErrorCode(result: ExecutionResult): string | undefined {
  const first = result.errors?.[0];
  if (first === undefined) return undefined;
  const code = first.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_ERROR';
}

/**
 * The gateway with every execution observed as `surface`'s: REST rows and MCP tools run their operations through it.
 * @example registerOperationRoutes(app, { gateway: observedGateway(gateway, tallies, 'rest'), … })
 */
export function observedGateway(
  gateway: InProcessGateway,
  tallies: OperationTallies,
  surface: OperationSurface,
): InProcessGateway {
  const execute: InProcessGateway['execute'] = (op, variables, context) =>
    observeOperation(
      tallies,
      { surface, name: op.operation.name?.value },
      () => gateway.execute(op, variables, context),
      firstErrorCode,
    );
  // Every other member (schema, stop) is the gateway's own.
  return Object.assign(Object.create(gateway) as InProcessGateway, { execute });
}
