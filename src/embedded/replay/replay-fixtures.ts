import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const replayRequestSchema = z.strictObject({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'must be an HTTP method')
    .transform((m) => m.toUpperCase()),
  /** Relative to the source's base URL; '*' matches every path of the source. */
  path: z.string().refine((p) => p === '*' || p.startsWith('/'), "must start with '/' or be '*'"),
  /** Exact match per listed key; '*' matches any value of a present key; unlisted keys are ignored. */
  query: z.record(z.string(), z.string()).optional(),
  /**
   * Top-level fields a JSON request body must carry, each equal to the value given (e.g. a GraphQL `operationName`),
   * for upstreams that take every request on one path.
   */
  body: z.record(z.string(), z.unknown()).optional(),
});

const replayResponseSchema = z
  .strictObject({
    status: z.number().int().min(100).max(599),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown().optional(),
    bodyText: z.string().optional(),
    delayMs: z.number().int().min(0).max(120_000).optional(),
  })
  .refine((r) => r.body === undefined || r.bodyText === undefined, 'give body or bodyText, not both');

const replayEntrySchema = z.strictObject({
  description: z.string().optional(),
  scenario: z.string().min(1).optional(),
  request: replayRequestSchema,
  response: replayResponseSchema,
});

const replayFileSchema = z.array(replayEntrySchema);

/** One recorded upstream reply and the request it answers. */
export type ReplayEntry = z.infer<typeof replayEntrySchema>;

/** Every recorded reply, by source name (the folder under the fixtures directory). */
export type ReplayFixtures = Map<string, ReplayEntry[]>;

/** Thrown at load when a fixture file is not valid JSON or not a list of replay entries. */
export class InvalidReplayFixtureError extends Error {
  override name = 'InvalidReplayFixtureError';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`invalid replay fixture ${file}: ${detail}`);
  }
}

const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]*$/i;

function readReplayFile(file: string): ReplayEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InvalidReplayFixtureError(file, err instanceof Error ? err.message : String(err));
  }
  const parsed = replayFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new InvalidReplayFixtureError(file, issues.join('; '));
  }
  return parsed.data;
}

/**
 * Reads and validates `<recordingsDir>/<source>/*.json` (files in name order); a bad file throws.
 * @example loadReplayFixtures(defaultRecordingsDir()).get('coingecko')?.length
 */
export function loadReplayFixtures(recordingsDir: string): ReplayFixtures {
  const files = fixtureFiles(recordingsDir);
  // Parsing every file is most of a replay server's start; a process that starts many (the tests) parses them once
  // per version of the files.
  const version = files.map(({ file }) => `${file}:${statSync(file).mtimeMs}`).join('\n');
  const cached = loaded.get(recordingsDir);
  if (cached?.version === version) return cached.fixtures;
  const fixtures: ReplayFixtures = new Map();
  for (const { source, file } of files)
    fixtures.set(source, [...(fixtures.get(source) ?? []), ...readReplayFile(file)]);
  loaded.set(recordingsDir, { version, fixtures });
  return fixtures;
}

const loaded = new Map<string, { version: string; fixtures: ReplayFixtures }>();

/** `<recordingsDir>/<source>/*.json` of each source folder, sources and files in name order. */
function fixtureFiles(recordingsDir: string): { source: string; file: string }[] {
  const found: { source: string; file: string }[] = [];
  for (const source of readdirSync(recordingsDir).sort()) {
    const sourceDir = join(recordingsDir, source);
    if (!statSync(sourceDir).isDirectory() || !SOURCE_NAME.test(source)) continue;
    for (const f of readdirSync(sourceDir)
      .filter((name) => name.endsWith('.json'))
      .sort()) {
      found.push({ source, file: join(sourceDir, f) });
    }
  }
  return found;
}
