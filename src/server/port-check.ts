import { createServer } from 'node:net';

/** The configured port is taken: the message is the one line `npm start` prints. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(
      `port ${port} on ${host} is in use by another process: stop it, or set PORT to a free port (PORT=${port + 1} npm start)`,
    );
  }
}

/**
 * Refuses a port another process holds, before anything else starts (chains, store): binds it for a moment, then
 * lets it go. Port 0 (any free port) always passes.
 * @example await assertPortFree(3000, '0.0.0.0')
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, host) : err),
    );
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** `app.listen`'s own EADDRINUSE (another process took the port since the check) as the same one-line error. */
export function portInUse(err: unknown, port: number, host: string): unknown {
  return (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE' ? new PortInUseError(port, host) : err;
}
