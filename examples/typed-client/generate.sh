#!/usr/bin/env bash
# Types for a client of this API, from the published contract in schema/ (the same documents /api/openapi.yaml and
# /graphql serve): REST paths with openapi-typescript, GraphQL operations with GraphQL Codegen. Writes generated/.
# usage (from the repository root): examples/typed-client/generate.sh
set -euo pipefail
here=$(dirname "$0")
bin=$(npm prefix)/node_modules/.bin
"$bin/openapi-typescript" schema/openapi.yaml --output "$here/generated/rest.d.ts"
"$bin/graphql-codegen" --config "$here/codegen.ts"
