import 'reflect-metadata';
import { type AppConfig, secretValues } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { VolatileRedisError } from '../store/redis-durability.js';
import { createServer } from './create-server.js';
import { PortInUseError } from './port-check.js';
import { embeddedChainRows, startBanner } from './start-banner.js';

/**
 * Serves the configuration main.ts validated, prints the banner, and shuts down gracefully on SIGTERM / SIGINT.
 * @example await serve(loadConfig(process.env))
 */
export async function serve(config: AppConfig): Promise<void> {
  try {
    const logger = createLogger(config.logLevel, secretValues(process.env));
    const server = await createServer({ config, logger });
    const chains = embeddedChainRows(server);
    process.stdout.write(startBanner({ url: server.url, chains, parts: config.parts }));
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      server.close().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  } catch (err) {
    if (err instanceof PortInUseError || err instanceof VolatileRedisError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  }
}
