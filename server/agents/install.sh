#!/bin/sh
# Vigil agent installer for Linux (systemd). Usage:
#   curl -fsSL __SERVER__/install.sh | sudo sh -s -- --token TOKEN [--interval SECONDS] [--name NAME]
# Downloads the agent for this architecture, checks its sha256, registers it with the one-time token, and runs it as
# the unprivileged user vigil-agent under systemd. The credential stays in /etc/vigil-agent/agent.json (mode 0600).
set -eu

SERVER="__SERVER__"
TOKEN="${VIGIL_TOKEN:-}"
INTERVAL=10
NAME=""
while [ $# -gt 0 ]; do
  case "$1" in
    --token) TOKEN="$2"; shift 2 ;;
    --interval) INTERVAL="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --server) SERVER="$2"; shift 2 ;;
    *) echo "vigil install: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$TOKEN" ] || { echo "vigil install: --token is required (create one on the Agents page)" >&2; exit 2; }
case "$INTERVAL" in ''|*[!0-9]*) echo "vigil install: --interval must be a whole number of seconds" >&2; exit 2 ;; esac

case "$(uname -m)" in
  x86_64|amd64) ARCH=x64 ;;
  aarch64|arm64) ARCH=arm64 ;;
  *) echo "vigil install: unsupported architecture $(uname -m)" >&2; exit 1 ;;
esac

# VIGIL_INSTALL_ROOT installs under another root (a package build, or the project's tests); normally empty.
ROOT="${VIGIL_INSTALL_ROOT:-}"
BIN=/usr/local/bin/vigil-agent
CONFIG_DIR=/etc/vigil-agent
REGISTERED=no

# Whatever goes wrong, say how to do it by hand; the token is still good unless registration happened.
manual() {
  {
    echo
    echo "To install by hand instead:"
    echo "  curl -fsSL --compressed -o vigil-agent $SERVER/downloads/vigil-agent-linux-$ARCH && chmod +x vigil-agent"
    if [ "$REGISTERED" = no ]; then
      echo "  VIGIL_TOKEN=$TOKEN ./vigil-agent register --server $SERVER"
    else
      echo "  (this agent is registered already: its credential is in $CONFIG_DIR/agent.json)"
    fi
    echo "  ./vigil-agent run --interval $INTERVAL"
  } >&2
}
fail() { echo "vigil install: $*" >&2; exit 1; }
TMP=""
on_exit() {
  status=$?
  [ -n "$TMP" ] && rm -rf "$TMP"
  [ "$status" -eq 0 ] || manual
}
trap on_exit EXIT

# Checked before anything is downloaded or registered, so a failure does not spend the one-time token.
[ "$(id -u)" -eq 0 ] || fail "run as root (sudo sh -s -- …)"
command -v systemctl >/dev/null 2>&1 || fail "systemd not found"
[ -d "$ROOT/run/systemd/system" ] || fail "systemd is not running on this machine (a container?)"
command -v curl >/dev/null 2>&1 || fail "curl not found"
command -v sha256sum >/dev/null 2>&1 || fail "sha256sum not found"
TMP=$(mktemp -d)

URL="$SERVER/downloads/vigil-agent-linux-$ARCH"
gzip_download() { curl -fsSL --compressed -o "$TMP/vigil-agent" "$URL"; }
# The xz copy is the lightest transfer (about 37 MB instead of 52 MB with gzip). A host without xz, a server whose
# build has no xz copy yet (a 404, kept quiet) or an xz that cannot unpack it gets the gzip transfer. Either way the
# checksum below is the binary's.
if command -v xz >/dev/null 2>&1; then
  echo "Downloading vigil-agent for linux-$ARCH from $SERVER (xz)"
  if ! curl -fsL -o "$TMP/vigil-agent.xz" "$URL.xz"; then
    echo "No xz copy on the server: downloading it gzip-compressed instead"
    gzip_download
  elif ! xz --decompress "$TMP/vigil-agent.xz"; then
    echo "xz could not unpack it: downloading it gzip-compressed instead"
    gzip_download
  fi
else
  echo "Downloading vigil-agent for linux-$ARCH from $SERVER (gzip; with xz installed the download is lighter)"
  gzip_download
fi
curl -fsSL -o "$TMP/vigil-agent.sha256" "$URL.sha256"
EXPECTED=$(cut -d' ' -f1 "$TMP/vigil-agent.sha256")
ACTUAL=$(sha256sum "$TMP/vigil-agent" | cut -d' ' -f1)
[ "$EXPECTED" = "$ACTUAL" ] || fail "checksum mismatch ($ACTUAL, expected $EXPECTED)"
install -d "$ROOT/usr/local/bin" "$ROOT/etc/systemd/system"
install -m 0755 "$TMP/vigil-agent" "$ROOT$BIN"

id vigil-agent >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin vigil-agent
install -d -m 0700 "$ROOT$CONFIG_DIR"
chown vigil-agent:vigil-agent "$ROOT$CONFIG_DIR"

# The token goes through the environment, never the command line (visible in ps).
VIGIL_TOKEN="$TOKEN" VIGIL_AGENT_NAME="$NAME" "$ROOT$BIN" register --server "$SERVER" --config "$ROOT$CONFIG_DIR/agent.json"
REGISTERED=yes
chown vigil-agent:vigil-agent "$ROOT$CONFIG_DIR/agent.json"
chmod 0600 "$ROOT$CONFIG_DIR/agent.json"

cat > "$ROOT/etc/systemd/system/vigil-agent.service" <<UNIT
[Unit]
Description=Vigil monitoring agent
After=network-online.target
Wants=network-online.target

[Service]
User=vigil-agent
Group=vigil-agent
ExecStart=$BIN run --config $CONFIG_DIR/agent.json --interval $INTERVAL
Restart=always
RestartSec=5
# 78: the server no longer accepts this agent (deleted): do not restart in a loop.
RestartPreventExitStatus=78
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ReadOnlyPaths=/
# The one place it writes: unsent results of the checks assigned to it (probe-results.json beside its config).
ReadWritePaths=$CONFIG_DIR

[Install]
WantedBy=multi-user.target
UNIT

systemctl daemon-reload
systemctl enable --now vigil-agent
echo "vigil-agent is running: systemctl status vigil-agent"
