import 'reflect-metadata';
import { type AppConfig, ConfigError, loadConfig, secretValues } from '../config/config.js';
import { assertLiveReady } from '../config/live-guard.js';
import { createLogger } from '../logging/logger.js';
import { VolatileRedisError } from '../store/redis-durability.js';
import { createServer } from './create-server.js';
import { assertPortFree, PortInUseError } from './port-check.js';
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

/**
 * `npm start` once its code is loaded (main.ts): the configuration is validated, and a live part leaning on a demo
 * value refused (one line per variable, exit 2), then a busy port is refused (one line, exit 1), both before the store
 * opens or any chain starts; then it serves.
 * @example await startFromEnv(process.env)
 */
export async function startFromEnv(env: NodeJS.ProcessEnv): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(env);
    assertLiveReady(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  try {
    await assertPortFree(config.port, config.host);
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  await serve(config);
}
