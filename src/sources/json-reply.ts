/** Thrown by reply mappers inside the upstream call: the reply is not the shape the upstream documents. */
export class UnexpectedReplyError extends Error {
  override name = 'UnexpectedReplyError';
}

/** A finite number from a JSON number or numeric string; null for anything else (null, '', NaN, objects). */
export function finiteNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** A JSON object (not null, not an array), whose keys a mapper may read. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
