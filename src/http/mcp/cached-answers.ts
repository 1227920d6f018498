import { randomBytes } from 'node:crypto';

/** A stored answer's placeholder, and the size of the bytes it stands for. */
export interface CachedAnswer {
  placeholder: string;
  bytes: () => number;
}

/**
 * Answers that never change (a resource's contents, the tool list), serialized to JSON once. A handler returns a
 * placeholder string in their place; the transport serializes the small placeholder, and {@link CachedAnswers.splice} puts
 * the stored bytes where it stands: no document is encoded again per request.
 * @example const cached = new CachedAnswers(); const { placeholder } = cached.store(() => contents); …; cached.splice(body)
 */
export class CachedAnswers {
  /** Unknowable to callers: an echoed argument can never pass for a placeholder. */
  private readonly marker = `cached-answer-${randomBytes(16).toString('hex')}-`;
  private readonly pattern = new RegExp(`"${this.marker}(\\d+)"`, 'g');

  private readonly answers: (() => Buffer)[] = [];

  /** Keeps the JSON of what `make` returns, made on first use (a document may be rendered only when read). */
  store(make: () => unknown): CachedAnswer {
    let json: Buffer | undefined;
    const bytes = () => {
      json ??= Buffer.from(JSON.stringify(make()));
      return json;
    };
    this.answers.push(bytes);
    return { placeholder: `${this.marker}${this.answers.length - 1}`, bytes: () => bytes().byteLength };
  }

  /** `body` (JSON text) with each placeholder string, quotes included, replaced by its stored JSON. */
  splice(body: string): Buffer | string {
    if (!body.includes(this.marker)) return body;
    const parts: Buffer[] = [];
    let at = 0;
    for (const match of body.matchAll(this.pattern)) {
      parts.push(Buffer.from(body.slice(at, match.index)), this.answers[Number(match[1])]!());
      at = match.index + match[0].length;
    }
    parts.push(Buffer.from(body.slice(at)));
    return Buffer.concat(parts);
  }
}
