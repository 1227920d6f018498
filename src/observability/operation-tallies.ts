import { countInto, DurationTally } from './duration-tally.js';

/** Where an operation came from: POST/GET /graphql, a REST row, or an MCP tool call of a row. */
export type OperationSurface = 'graphql' | 'rest' | 'mcp';

/** The label of an operation the service does not publish (a caller's own name). */
export const OTHER_OPERATION = 'other';
/** The label of an operation sent without a name. */
export const ANONYMOUS_OPERATION = 'anonymous';

/** One operation's runs on one surface: latency of each, and the runs that failed, by error code. */
export class OperationTally {
  readonly duration = new DurationTally();
  readonly errors = new Map<string, number>();

  constructor(
    readonly surface: OperationSurface,
    readonly operation: string,
  ) {}
}

const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,47}$/;

/**
 * Operation runs by surface and operation name. Names are chosen by callers, so only published ones (REST rows'
 * operations, the example documents) become labels; any other is `other`, and error codes that are not
 * UPPER_SNAKE_CASE are `OTHER`: the series stay bounded whatever callers send.
 * @example const ops = new OperationTallies(['resolveEnsName']); ops.record('rest', 'resolveEnsName', 0.004, undefined)
 */
export class OperationTallies {
  private readonly published: ReadonlySet<string>;
  /** Every tally, in the order each was first recorded. */
  private readonly all: OperationTally[] = [];
  /** The same tallies by surface, then operation: looked up on every run without building a key. */
  private readonly bySurface: Record<OperationSurface, Map<string, OperationTally>> = {
    graphql: new Map(),
    rest: new Map(),
    mcp: new Map(),
  };

  constructor(publishedNames: Iterable<string>) {
    this.published = new Set(publishedNames);
  }

  /** The label of a caller-chosen operation name. */
  label(name: string | null | undefined): string {
    if (name === null || name === undefined || name === '') return ANONYMOUS_OPERATION;
    return this.published.has(name) ? name : OTHER_OPERATION;
  }

  /** Records one run of an operation already labelled by {@link label}; `errorCode` when it failed. */
  record(surface: OperationSurface, operation: string, seconds: number, errorCode: string | undefined): void {
    const ofSurface = this.bySurface[surface];
    let tally = ofSurface.get(operation);
    if (!tally) {
      tally = new OperationTally(surface, operation);
      ofSurface.set(operation, tally);
      this.all.push(tally);
    }
    tally.duration.record(seconds);
    if (errorCode !== undefined) countInto(tally.errors, ERROR_CODE.test(errorCode) ? errorCode : 'OTHER');
  }

  tallies(): IterableIterator<OperationTally> {
    return this.all.values();
  }
}
