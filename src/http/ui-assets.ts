import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { UI_ASSET_FILES, uiAssetPath } from '../../rest-compat/docs/ui-asset-files.js';

export interface UiAssetsOptions {
  /** Cache-Control of the assets; they change only with the package version, which their links carry. */
  cacheControl?: string;
}

const ONE_YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the Swagger UI and GraphiQL browser files from node_modules, each read once at registration.
 * Only adds routes, so it can be registered anywhere without fastify-plugin.
 * @example await app.register(uiAssets, {})
 */
export async function uiAssets(app: FastifyInstance, opts: UiAssetsOptions): Promise<void> {
  const cacheControl = opts.cacheControl ?? ONE_YEAR_IMMUTABLE;
  for (const asset of UI_ASSET_FILES) {
    const body = readFileSync(uiAssetPath(asset));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    app.get(asset.url, async (request, reply) => {
      reply.header('cache-control', cacheControl).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(asset.contentType).send(body);
    });
  }
}
