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
 * GraphiQL's fetcher: a subscription goes over GraphQL over SSE (graphql-sse's distinct connections mode, the same
 * /graphql with \`Accept: text/event-stream\`), each \`next\` event one result; everything else over plain HTTP.
 * Written out rather than bundling a client: the SSE protocol is a few lines of fetch.
 */
const SSE_FETCHER = `function isSubscription(params) {
  var ops = /(?:^|[}\\s])(query|mutation|subscription)\\b\\s*([_A-Za-z][_0-9A-Za-z]*)?/g;
  var match;
  while ((match = ops.exec(params.query || ''))) {
    if (!params.operationName || match[2] === params.operationName) {
      if (match[1] === 'subscription') return true;
    }
  }
  return false;
}
async function* sseResults(params) {
  var controller = new AbortController();
  var response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(params),
    signal: controller.signal,
  });
  if (!(response.headers.get('content-type') || '').includes('text/event-stream')) {
    yield await response.json();
    return;
  }
  var reader = response.body.getReader();
  var decoder = new TextDecoder();
  var buffer = '';
  try {
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      var messages = buffer.split('\\n\\n');
      buffer = messages.pop();
      for (var i = 0; i < messages.length; i++) {
        var event = '', data = '';
        messages[i].split('\\n').forEach(function (line) {
          if (line.indexOf('event:') === 0) event = line.slice(6).trim();
          else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
        });
        if (event === 'next') yield JSON.parse(data);
        else if (event === 'complete') return;
      }
    }
  } finally {
    controller.abort();
  }
}
var fetcher = function (params, options) {
  return isSubscription(params) ? sseResults(params) : httpFetcher(params, options);
};`;

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
var endpoint = ${scriptLiteral(endpoint)};
var httpFetcher = GraphiQL.createFetcher({ url: endpoint });
${SSE_FETCHER}
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, Object.assign({ fetcher: fetcher }, ${scriptLiteral(options)}))
);
</script>`,
  });
}
