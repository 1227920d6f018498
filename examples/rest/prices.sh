#!/usr/bin/env bash
# One token's USD price with its 24-hour change, then several in one call.
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS "$API_URL/api/price/ETH"
echo
curl -sS "$API_URL/api/price/batch?symbols=ETH,BTC,USDC"
