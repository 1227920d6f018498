/**
 * A place in the live bus's replay log, as a Redis stream entry id: `<ms>-<seq>`, the publication's time in Unix ms
 * and its order within that millisecond. Later publications have greater positions; it is the SSE `id:` of the event
 * and the `Last-Event-ID` a client resumes after (docs/live-data.md#reconnecting).
 */
export interface ReplayPosition {
  ms: number;
  seq: number;
}

const POSITION = /^(\d{1,15})-(\d{1,15})$/;

/** A position as a client sent it back; undefined for anything this service does not give out. */
export function parsePosition(text: string | undefined): ReplayPosition | undefined {
  const match = text === undefined ? null : POSITION.exec(text.trim());
  if (!match) return undefined;
  return { ms: Number(match[1]), seq: Number(match[2]) };
}

export function formatPosition(p: ReplayPosition): string {
  return `${p.ms}-${p.seq}`;
}

/** Whether `a` comes after `b` in the log. */
export function isAfter(a: ReplayPosition, b: ReplayPosition): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.seq > b.seq);
}

/**
 * The positions an in-process log gives, as Redis gives stream ids: the clock's ms, or the last one's when the clock
 * has not moved on (or went back), with the next sequence number.
 * @example const next = positionClock(Date.now); next() // { ms: 1764400000000, seq: 0 }
 */
export function positionClock(now: () => number): () => ReplayPosition {
  let last: ReplayPosition = { ms: 0, seq: 0 };
  return () => {
    const at = now();
    last = at > last.ms ? { ms: at, seq: 0 } : { ms: last.ms, seq: last.seq + 1 };
    return last;
  };
}
