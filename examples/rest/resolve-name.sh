#!/usr/bin/env bash
# The address an ENS name resolves to (default alice.eth); 404 when it has none.
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS "$API_URL/api/ens/resolve/${1:-alice.eth}"
