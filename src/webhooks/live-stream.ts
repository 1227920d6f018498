import type { LiveEvent } from '../../subgraphs/shared/live-services.js';
import { ApiError } from '../errors/api-error.js';

/** Event ids one stream remembers, so an event heard twice (a reconnect, two publishers) is delivered once. */
const REMEMBERED_IDS = 256;

/** What a stream reports as it goes (src/observability/live-tallies.ts). */
export interface LiveStreamObserver {
  /** An event went to the reader. */
  delivered(): void;
  /** The stream was dropped: its reader let `capacity` events wait. */
  dropped(): void;
}

/**
 * One subscription's events, waiting for its reader: at most `capacity` wait; one more and the stream ends with an
 * error and lets go of what waited (a reader that never reads costs at most `capacity` events).
 */
export class LiveStream implements AsyncIterableIterator<LiveEvent> {
  private readonly waiting: LiveEvent[] = [];
  private readonly seen = new Set<string>();
  /** The reader waiting in next(), when no event waits. */
  private reader: { resolve: (r: IteratorResult<LiveEvent>) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;
  private ended = false;

  constructor(
    private readonly capacity: number,
    private readonly onEnd: () => void,
    private readonly observer?: LiveStreamObserver,
  ) {}

  /** Hands an event to the reader, or keeps it waiting; false once the stream has ended. */
  push(event: LiveEvent): boolean {
    if (this.ended) return false;
    if (this.seen.has(event.id)) return true;
    this.seen.add(event.id);
    if (this.seen.size > REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value!);
    if (this.reader) {
      const reader = this.reader;
      this.reader = undefined;
      this.observer?.delivered();
      reader.resolve({ value: event, done: false });
      return true;
    }
    if (this.waiting.length >= this.capacity) {
      this.observer?.dropped();
      this.fail(
        new ApiError(
          'SERVICE_UNAVAILABLE',
          `subscription dropped: ${this.capacity} events waited for this subscriber to read them; read faster or watch less, then subscribe again`,
        ),
      );
      return false;
    }
    this.waiting.push(event);
    return true;
  }

  /** Ends the stream with an error its reader gets after nothing (the waiting events are let go). */
  fail(error: Error): void {
    if (this.ended) return;
    this.waiting.length = 0;
    this.failure = error;
    this.finish();
  }

  /** Ends the stream: the reader gets what waits, then the end (a server shutting down). */
  complete(): void {
    this.finish();
  }

  get length(): number {
    return this.waiting.length;
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    const reader = this.reader;
    this.reader = undefined;
    if (!reader) return;
    const failure = this.failure;
    this.failure = undefined;
    if (failure) reader.reject(failure);
    else reader.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<LiveEvent>> {
    const event = this.waiting.shift();
    if (event) {
      this.observer?.delivered();
      return Promise.resolve({ value: event, done: false });
    }
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.reader = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<LiveEvent>> {
    this.waiting.length = 0;
    this.failure = undefined;
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveEvent> {
    return this;
  }
}
