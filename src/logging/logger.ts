import { pino, type Logger } from 'pino';

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
  '*.secret',
  '*.signerKey',
];

/** The process logger: JSON lines on stdout, secrets redacted. */
export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: SECRET_PATHS, censor: '[redacted]' } });
}
