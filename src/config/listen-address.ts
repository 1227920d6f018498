import { z } from 'zod';

/** PORT and HOST as config.ts validates them; read alone by `npm start` to refuse a busy port before loading the rest. */
export const LISTEN_ADDRESS_ENV = {
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
};

const listenAddressSchema = z.object(LISTEN_ADDRESS_ENV);

/**
 * The address the server will listen on, or the same message loadConfig gives for a bad PORT or HOST.
 * @example const { port, host } = readListenAddress(process.env)
 */
export function readListenAddress(
  env: Record<string, string | undefined>,
): { ok: true; port: number; host: string } | { ok: false; message: string } {
  // An empty value (`FOO=` in an env file) means unset, as in loadConfig.
  const given = Object.fromEntries(
    Object.entries({ PORT: env.PORT, HOST: env.HOST }).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = listenAddressSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    return { ok: false, message: `invalid configuration:\n  ${lines.join('\n  ')}` };
  }
  return { ok: true, port: parsed.data.PORT, host: parsed.data.HOST };
}
