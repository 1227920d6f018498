#!/usr/bin/env bash
# Runs a .graphql file of this folder (default: the joined profile) with GraphQL over HTTP GET, which needs no JSON
# encoding; POST {"query": …} as application/json does the same, and mutations need it.
API_URL=${API_URL:-http://127.0.0.1:3000}
file=${1:-$(dirname "$0")/profile-wallet-farcaster.graphql}
curl -sS -G "$API_URL/graphql" --data-urlencode "query@$file"
