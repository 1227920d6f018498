#!/usr/bin/env bash
# Calls with an API key, counted on the key, with its limits. On the embedded default, `npm run demo -- api-key`
# prints a demo key as an `export API_KEY=…` line to paste first; elsewhere, create one: docs/access.md#api-keys-and-credits
API_URL=${API_URL:-http://127.0.0.1:3000}
: "${API_KEY:?set API_KEY first: npm run demo -- api-key prints one on the embedded default}"
curl -sS -H "X-API-Key: $API_KEY" "$API_URL/api/ens/resolve/bob.eth"
echo
curl -sS -H "X-API-Key: $API_KEY" "$API_URL/api/usage"
echo
