#!/usr/bin/env bash
# After a deploy: each instance answers, and a client sees the same service on each (one store, one CCIP signer, one
# Ethereum chain), so a load balancer may send any request anywhere. Exit 1 naming each mismatch.
# usage: examples/operators/check-instances.sh https://10.0.0.1:3000 https://10.0.0.2:3000 …
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 <instance URL>…" >&2; exit 2; }
# One JSON field of a document, by a pattern that names it: `field '"signer":"[^"]*"' "$json"` prints the value.
field() { grep -o "$1" <<<"$2" | head -n 1 | sed -E 's/.*:"?([^"]*)"?$/\1/'; }
problems=()
stores=() signers=() heads=() embedded=()
for url in "$@"; do
  status=$(curl -sS -o /dev/null -w '%{http_code}' "$url/api/health")
  ccip=$(curl -sS "$url/ccip/health")
  sources=$(curl -sS "$url/api/sources/health")
  gas=$(curl -sS "$url/api/gas?chain=ethereum")
  store=$(field '"dbPath":"[a-z]*"' "$ccip")
  signer=$(field '"signer":"0x[0-9a-fA-F]*"' "$ccip")
  chain=$(field '"part":"ethereum","mode":"[a-z]*"' "$sources")
  head=$(field '"blockNumber":"[0-9]*"' "$gas")
  [ "$chain" = demo ] && chain="embedded (its own)" && embedded+=("$url")
  echo "$url: health $status, store $store, CCIP signer $signer, Ethereum $chain at block $head"
  [ "$status" = 200 ] || problems+=("$url is not healthy (GET /api/health answered $status)")
  stores+=("$store") signers+=("$signer") heads+=("$head")
done
distinct() { printf '%s\n' "$@" | sort -u | wc -l; }
[ "$(distinct "${stores[@]}")" -eq 1 ] || problems+=("the instances run on different stores: ${stores[*]}")
[ "$(distinct "${signers[@]}")" -eq 1 ] || problems+=("the instances sign CCIP answers with different keys: ${signers[*]}")
# Instances reading one chain may be a block or two apart for a moment; more is another chain or a stalled node.
lowest=$(printf '%s\n' "${heads[@]}" | sort -n | head -n 1)
highest=$(printf '%s\n' "${heads[@]}" | sort -n | tail -n 1)
[ $((highest - lowest)) -le 2 ] || problems+=("their Ethereum heads are $((highest - lowest)) blocks apart ($lowest to $highest)")
# An embedded chain is one instance's own: others may read it through ETH_RPC_URL, but two embedded ones are two chains.
if [ ${#embedded[@]} -gt 1 ]; then
  problems+=("${#embedded[@]} of the $# instances each run an embedded Ethereum chain of their own (${embedded[*]}): a transaction sent to one chain is unknown to the others; point every instance at one chain with ETH_RPC_URL")
fi
if [ ${#problems[@]} -gt 0 ]; then
  printf 'mismatch: %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "all $# instances share the $store store, CCIP signer $signer and one Ethereum chain (head $lowest to $highest)"
