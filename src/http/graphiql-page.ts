import { escapeHtml, scriptLiteral } from '../../rest-compat/docs/html-escape.js';
import { uiAssetHref } from '../../rest-compat/docs/ui-asset-files.js';
import { uiPageShell } from '../../rest-compat/docs/ui-page-shell.js';

export interface GraphiqlPageParams {
  /** The GraphQL endpoint the page queries; same origin. */
  endpoint?: string;
  title?: string;
  /** Tabs GraphiQL opens with (a visitor's own saved tabs win); the first also replaces its welcome text. */
  tabs?: readonly { query: string }[];
}

/**
 * The GraphiQL 3 page (React 18 UMD from /graphql/assets/) that queries `endpoint`.
 * @example reply.type('text/html; charset=utf-8').send(renderGraphiqlPage({ endpoint: '/graphql' }))
 */
export function renderGraphiqlPage({
  endpoint = '/graphql',
  title = 'GraphiQL · Blockchain Identity and Market Data API',
  tabs = [],
}: GraphiqlPageParams = {}): string {
  const options = {
    defaultEditorToolsVisibility: 'variables',
    ...(tabs.length > 0 ? { defaultTabs: tabs, defaultQuery: tabs[0]!.query } : {}),
  };
  return uiPageShell({
    title,
    stylesheet: '/graphql/assets/graphiql.min.css',
    style: 'html,body{height:100%;margin:0;overflow:hidden}#graphiql{height:100vh}',
    body: `<div id="graphiql">Loading GraphiQL…</div>
<noscript>GraphiQL needs JavaScript. POST queries to ${escapeHtml(endpoint)} as JSON: {"query": "…"}.</noscript>
<script src="${escapeHtml(uiAssetHref('/graphql/assets/react.production.min.js'))}"></script>
<script src="${escapeHtml(uiAssetHref('/graphql/assets/react-dom.production.min.js'))}"></script>
<script src="${escapeHtml(uiAssetHref('/graphql/assets/graphiql.min.js'))}"></script>
<script>
var fetcher = GraphiQL.createFetcher({ url: ${scriptLiteral(endpoint)} });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, Object.assign({ fetcher: fetcher }, ${scriptLiteral(options)}))
);
</script>`,
  });
}
