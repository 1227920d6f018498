#!/usr/bin/env bash
# An ENS profile: address, avatar, content hash, text records, registrant, controller, expiry, resolver.
API_URL=${API_URL:-http://127.0.0.1:3000}
curl -sS "$API_URL/api/ens/${1:-alice.eth}"
