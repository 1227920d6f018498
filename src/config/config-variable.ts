import { z } from 'zod';

/**
 * One environment variable, declared once: how its value is validated, what it is when unset, what it means. The
 * configuration table of docs/configuration.md, `.env.example` and the secret scrubbing of the logger are all made
 * from these declarations (src/config/config-areas.ts lists them).
 */
export interface ConfigVariable<T> {
  /** Validates the raw text (a default is validated by the same schema). */
  readonly schema: z.ZodType<T>;
  /** The value when unset, written as an env file writes it; undefined: unset stays unset. */
  readonly default: string | undefined;
  /** What unset means when there is no literal default (markdown), e.g. 'generated, kept in the store'. */
  readonly unset: string | undefined;
  /** What it does, in markdown (links relative to docs/); `.env.example` gets it without the markup. */
  readonly meaning: string;
  /** A key, token or URL that may embed one: scrubbed from every log line, never printed. */
  readonly secret: boolean;
}

/**
 * A variable with a default: `PORT=3000` when unset.
 * @example PORT: withDefault('3000', z.coerce.number().int(), 'HTTP port')
 */
export function withDefault<S extends z.ZodType>(
  value: string,
  schema: S,
  meaning: string,
  options: { secret?: boolean } = {},
): ConfigVariable<z.output<S>> {
  return {
    schema: schema as unknown as z.ZodType<z.output<S>>,
    default: value,
    unset: undefined,
    meaning,
    secret: options.secret ?? false,
  };
}

/**
 * A variable that may stay unset (`undefined` in the settings); `unset` says what that means (default '—': nothing).
 * @example JWT_SECRET: optional(z.string().min(32), 'session signing secret', { unset: 'generated', secret: true })
 */
export function optional<S extends z.ZodType>(
  schema: S,
  meaning: string,
  options: { unset?: string; secret?: boolean } = {},
): ConfigVariable<z.output<S> | undefined> {
  return {
    schema: schema as unknown as z.ZodType<z.output<S> | undefined>,
    default: undefined,
    unset: options.unset,
    meaning,
    secret: options.secret ?? false,
  };
}

/** A table of variables by name, as one area of the configuration declares them. */
export type VariableTable = Readonly<Record<string, ConfigVariable<unknown>>>;

/** The validated values of a table's variables, by name. */
export type SettingsOf<T extends VariableTable> = {
  -readonly [K in keyof T]: T[K] extends ConfigVariable<infer V> ? V : never;
};

/** One area of the configuration (HTTP, store, chains …): a heading for the docs and `.env.example`, and its variables. */
export interface ConfigArea<T extends VariableTable = VariableTable> {
  readonly title: string;
  /** One line said above the area's variables in `.env.example`. */
  readonly about: string;
  readonly variables: T;
}

/** An optional URL (`''` is unset, as in an env file). */
export const urlSchema = z.string().trim().pipe(z.url());

/** `true` or `false`, as an env file writes a flag. */
export const flagSchema = z.enum(['true', 'false']).transform((v) => v === 'true');

/**
 * Every variable of `table` validated from `given` (empty values already dropped): the settings, or one
 * `NAME: message` line per refused value.
 * @example readSettings(HTTP_VARIABLES, { PORT: '8080' }) // { settings: { PORT: 8080, … } }
 */
export function readSettings<T extends VariableTable>(
  table: T,
  given: Readonly<Record<string, string>>,
): { settings: SettingsOf<T>; issues: string[] } {
  const settings: Record<string, unknown> = {};
  const issues: string[] = [];
  for (const [name, variable] of Object.entries(table)) {
    const raw = given[name] ?? variable.default;
    if (raw === undefined) {
      settings[name] = undefined;
      continue;
    }
    const parsed = variable.schema.safeParse(raw);
    if (parsed.success) settings[name] = parsed.data;
    else issues.push(...parsed.error.issues.map((i) => `${name}: ${i.message}`));
  }
  return { settings: settings as SettingsOf<T>, issues };
}
