#!/usr/bin/env bash
# After a deploy: each instance answers, runs on the shared store, and signs CCIP answers with the same key (so a
# load balancer may send any request anywhere). Exit 1 when they differ.
# usage: examples/operators/check-instances.sh https://10.0.0.1:3000 https://10.0.0.2:3000 …
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 <instance URL>…" >&2; exit 2; }
seen=""
for url in "$@"; do
  status=$(curl -sS -o /dev/null -w '%{http_code}' "$url/api/health")
  ccip=$(curl -sS "$url/ccip/health")
  signer=$(grep -o '"signer":"0x[0-9a-fA-F]*"' <<<"$ccip" | cut -d'"' -f4)
  store=$(grep -o '"dbPath":"[a-z]*"' <<<"$ccip" | cut -d'"' -f4)
  echo "$url: health $status, store $store, CCIP signer $signer"
  [ "$status" = 200 ] || { echo "$url is not healthy" >&2; exit 1; }
  seen="$seen$store $signer"$'\n'
done
if [ "$(sort -u <<<"${seen%$'\n'}" | wc -l)" -ne 1 ]; then
  echo "the instances do not share one store and signer" >&2
  exit 1
fi
echo "all $# instances share the $store store and signer $signer"
