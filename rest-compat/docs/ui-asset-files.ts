import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** One browser file of the docs or GraphiQL page, served from an installed package (no CDN). */
export interface UiAssetFile {
  /** Where the server answers with it. */
  url: string;
  /** npm package that ships it and the file inside the package. */
  packageName: string;
  file: string;
  contentType: string;
}

const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

export const UI_ASSET_FILES: readonly UiAssetFile[] = [
  { url: '/docs/assets/swagger-ui.css', packageName: 'swagger-ui-dist', file: 'swagger-ui.css', contentType: CSS },
  {
    url: '/docs/assets/swagger-ui-bundle.js',
    packageName: 'swagger-ui-dist',
    file: 'swagger-ui-bundle.js',
    contentType: JS,
  },
  { url: '/graphql/assets/graphiql.min.js', packageName: 'graphiql', file: 'graphiql.min.js', contentType: JS },
  { url: '/graphql/assets/graphiql.min.css', packageName: 'graphiql', file: 'graphiql.min.css', contentType: CSS },
  {
    url: '/graphql/assets/react.production.min.js',
    packageName: 'react',
    file: 'umd/react.production.min.js',
    contentType: JS,
  },
  {
    url: '/graphql/assets/react-dom.production.min.js',
    packageName: 'react-dom',
    file: 'umd/react-dom.production.min.js',
    contentType: JS,
  },
];

/** The package's own folder; through package.json because the packages' `exports` hide their UMD files. */
export function packageDir(packageName: string): string {
  return dirname(require.resolve(`${packageName}/package.json`));
}

/** Absolute path of an asset on disk. @example uiAssetPath(UI_ASSET_FILES[0]) */
export function uiAssetPath(asset: UiAssetFile): string {
  return join(packageDir(asset.packageName), asset.file);
}

/** Installed version of a package, read once per package. */
const versions = new Map<string, string>();
function packageVersion(packageName: string): string {
  let version = versions.get(packageName);
  if (version === undefined) {
    version = (require(`${packageName}/package.json`) as { version: string }).version;
    versions.set(packageName, version);
  }
  return version;
}

/**
 * The URL a page links an asset with: the package version in the query makes the long immutable cache safe across upgrades.
 * @example uiAssetHref('/docs/assets/swagger-ui.css') // '/docs/assets/swagger-ui.css?v=5.35.0'
 */
export function uiAssetHref(url: string): string {
  const asset = UI_ASSET_FILES.find((candidate) => candidate.url === url);
  if (asset === undefined) throw new Error(`no UI asset at ${url}`);
  return `${url}?v=${packageVersion(asset.packageName)}`;
}
