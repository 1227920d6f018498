import { type Logger, pino, stdSerializers } from 'pino';

/** Header and field names whose values are secrets: never written to a log line. */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'req.headers["payment-signature"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.apiKey',
  '*.privateKey',
  '*.signerKey',
  '*.secret',
];

/**
 * Replaces every occurrence of a known secret value (an API key in a URL path, a key in an RPC URL).
 * @example scrubber(["k3y"])("GET /k3y/api") // "GET /[redacted]/api"
 */
export function scrubber(secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/**
 * The process logger: JSON lines on stdout; secret fields redacted, and the configured secret values scrubbed from
 * messages and error texts wherever they appear (upstream errors may quote a URL that carries a key).
 * @example createLogger('info', secretValues(process.env))
 */
export function createLogger(
  level: string,
  secrets: readonly string[] = [],
  destination: NodeJS.WritableStream = process.stdout,
): Logger {
  const scrub = scrubber(secrets);
  return pino(
    {
      level,
      redact: { paths: SECRET_PATHS, censor: '[redacted]' },
      serializers: {
        err: (err: Error) => {
          const out = stdSerializers.err(err);
          out.message = scrub(out.message);
          if (out.stack) out.stack = scrub(out.stack);
          return out;
        },
      },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
    },
    destination,
  );
}
