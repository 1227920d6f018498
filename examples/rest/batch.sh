#!/usr/bin/env bash
# Up to 20 GET requests of this API in one call, counted once (Heavy tier); each answer keeps its own status.
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS "$API_URL/api/batch" -H 'content-type: application/json' \
  -d '{"requests":[{"path":"/api/ens/resolve/alice.eth"},{"path":"/api/price/ETH"},{"path":"/api/ens/resolve/nobody.eth"}]}'
