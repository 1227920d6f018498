#!/usr/bin/env bash
# Calls with an API key (create one with: npm run example -- auth/sign-in): counted on the key, with its limits.
set -euo pipefail
API_URL=${API_URL:-http://127.0.0.1:3000}
: "${API_KEY:?set API_KEY to a key from POST /api/user/keys}"
curl -sS -H "X-API-Key: $API_KEY" "$API_URL/api/ens/resolve/bob.eth"
echo
curl -sS -H "X-API-Key: $API_KEY" "$API_URL/api/usage"
