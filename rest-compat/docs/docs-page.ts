import { escapeHtml, scriptLiteral } from './html-escape.js';
import { uiAssetHref } from './ui-asset-files.js';
import { uiPageShell } from './ui-page-shell.js';

export interface DocsPageParams {
  /** Where the browser fetches the OpenAPI document; same origin. */
  specUrl?: string;
  title?: string;
}

/**
 * The /docs page: Swagger UI from /docs/assets/ rendering the OpenAPI document; no network beyond this origin.
 * @example reply.type('text/html; charset=utf-8').send(renderDocsPage({ specUrl: '/api/openapi.yaml' }))
 */
export function renderDocsPage({
  specUrl = '/api/openapi.yaml',
  title = 'Blockchain Identity and Market Data API',
}: DocsPageParams = {}): string {
  // validatorUrl null: Swagger UI would otherwise send the spec to validator.swagger.io for its badge.
  const config = {
    url: specUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    displayRequestDuration: true,
    filter: true,
    tryItOutEnabled: false,
  };
  return uiPageShell({
    title,
    stylesheet: '/docs/assets/swagger-ui.css',
    style:
      'html{box-sizing:border-box;overflow-y:scroll}*,*::before,*::after{box-sizing:inherit}body{margin:0;background:#fafafa}',
    body: `<div id="swagger-ui"></div>
<noscript>The interactive documentation needs JavaScript. The description itself is at <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a>.</noscript>
<script src="${escapeHtml(uiAssetHref('/docs/assets/swagger-ui-bundle.js'))}"></script>
<script>
window.ui = SwaggerUIBundle(Object.assign(${scriptLiteral(config)}, {
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout'
}));
</script>`,
  });
}
