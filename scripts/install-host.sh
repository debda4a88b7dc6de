#!/usr/bin/env bash
# Installs what the real-extension-host tests and the demo need on a fresh Debian machine:
#   - Debian packages: code-server's native-module build deps, ripgrep, Chromium (headless
#     workbench client), tmux and vim (terminal cases), git.
#   - code-server (VS Code OSS 1.100.3, the newest release on node 20) into a cache folder outside
#     the repo, reused when present. See ../shared/notes/vscode-host-offline.md.
# Idempotent: safe to run on every CI run. Prints the code-server binary path on its last line.
set -euo pipefail

CODE_SERVER_VERSION="${DSH_CODE_SERVER_VERSION:-4.100.3}"
CACHE_DIR="${DSH_CACHE_DIR:-$HOME/.cache/dsh-bridge}"
HOST_DIR="$CACHE_DIR/code-server-$CODE_SERVER_VERSION"
BIN="$HOST_DIR/node_modules/.bin/code-server"

need_pkgs=()
for p in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep chromium tmux vim-nox git python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_pkgs+=("$p")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-host: missing Debian packages (${need_pkgs[*]}); run as root or install them" >&2
    exit 1
  fi
  echo "install-host: apt-get install ${need_pkgs[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >&2
fi

if [ -x "$BIN" ] && [ -f "$HOST_DIR/.complete" ]; then
  echo "$BIN"
  exit 0
fi

# @vscode/ripgrep downloads rg from GitHub in postinstall; seed its cache with Debian's rg.
RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
RG_ASSET="$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$RG_ASSET" ]; then
  mkdir -p "$RG_CACHE"
  tmp="$(mktemp -d)"
  cp /usr/bin/rg "$tmp/rg"
  tar -C "$tmp" -czf "$RG_ASSET" rg
  rm -rf "$tmp"
fi

rm -rf "$HOST_DIR"
mkdir -p "$HOST_DIR"
echo "install-host: installing code-server@$CODE_SERVER_VERSION into $HOST_DIR (about 2 minutes)" >&2
( cd "$HOST_DIR" && echo '{"private":true}' > package.json && \
  npm_config_yes=true npm install --unsafe-perm --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2 )
touch "$HOST_DIR/.complete"
echo "$BIN"
