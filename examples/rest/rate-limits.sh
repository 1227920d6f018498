#!/usr/bin/env bash
# What a counted call costs the caller: the rate-limit headers of one answer, then the day's quota (free to ask).
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS -o /dev/null -D - "$API_URL/api/price/ETH" | grep -i '^x-ratelimit-'
curl -sS "$API_URL/api/usage"
