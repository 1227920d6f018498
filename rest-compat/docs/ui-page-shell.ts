import { escapeHtml } from './html-escape.js';
import { uiAssetHref } from './ui-asset-files.js';

/**
 * The HTML document around a same-origin UI page (/docs, /graphql): its title, one stylesheet from the page's own
 * assets, one inline style and the body, which the caller writes (and escapes) itself.
 * @example uiPageShell({ title: 'Docs', stylesheet: '/docs/assets/swagger-ui.css', style: 'body{margin:0}', body: '<div id="app"></div>' })
 */
export function uiPageShell(p: { title: string; stylesheet: string; style: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(uiAssetHref(p.stylesheet))}">
<style>${p.style}</style>
</head>
<body>
${p.body}
</body>
</html>
`;
}
