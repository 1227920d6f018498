#!/usr/bin/env bash
# Errors come in one envelope with a machine-readable code: a bad parameter is 400 INVALID_PARAMETER.
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS -w '\nHTTP %{http_code}\n' "$API_URL/api/ens/resolve/not_a_name"
