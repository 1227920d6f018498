import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReplayEntry } from './replay-fixtures.js';

/** The most a control request's body (or a recorded source's request body) may hold. */
const MAX_SMALL_BODY_BYTES = 64 * 1024;

/** A JSON answer of the replay's own (control routes, no recorded reply, a bad request). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A request's body as text, refused past 64 KiB. */
export function readSmallBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SMALL_BODY_BYTES) {
        reject(new Error('control body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** Writes one recorded reply exactly as recorded. */
export function sendRecordedReply(res: ServerResponse, response: ReplayEntry['response']): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload: string | undefined;
  if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json; charset=utf-8';
  } else if (response.bodyText !== undefined) {
    payload = response.bodyText;
    if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'text/plain; charset=utf-8';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
}

/**
 * Replies held back by their recorded delay ('slow'): how many were held at once is counted, a client that gives up
 * (timeout) releases its timer, and close clears the rest.
 */
export class HeldReplies {
  private readonly timers = new Set<NodeJS.Timeout>();
  mostAtOnce = 0;

  hold(res: ServerResponse, delayMs: number, send: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!res.destroyed) send();
    }, delayMs);
    this.timers.add(timer);
    this.mostAtOnce = Math.max(this.mostAtOnce, this.timers.size);
    res.on('close', () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
