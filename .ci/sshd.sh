#!/usr/bin/env bash
# Starts a throwaway sshd on 127.0.0.1 for tests/terminal.rs. Installs nothing: it needs
# /usr/sbin/sshd (Debian's openssh-server) and ssh-keygen. Host and user keys are made
# fresh in a temporary folder. Prints shell exports for the tests:
#
#   eval "$(.ci/sshd.sh)"        # sets TERMDOKU_SSH_PORT, _KEY, _USER, TERMDOKU_SSHD_PID
#   ...; kill "$TERMDOKU_SSHD_PID"
set -euo pipefail

SSHD=${SSHD:-/usr/sbin/sshd}
if [ ! -x "$SSHD" ] || ! command -v ssh-keygen >/dev/null; then
  echo "sshd.sh: $SSHD or ssh-keygen not found (apt-get install openssh-server)" >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/termdoku-sshd.XXXXXX")
chmod 700 "$dir"
ssh-keygen -q -t ed25519 -N '' -C termdoku-test-host -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -C termdoku-test-user -f "$dir/client_key"
cp "$dir/client_key.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
# Privilege separation needs this folder when sshd runs as root.
if [ "$(id -u)" = 0 ]; then mkdir -p /run/sshd && chmod 755 /run/sshd; fi

for attempt in 1 2 3 4 5 6 7 8 9 10; do
  port=$(( 20000 + (RANDOM * 7 + $$ + attempt * 101) % 40000 ))
  cat > "$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PermitTTY yes
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
CONF
  rm -f "$dir/sshd.pid"
  if "$SSHD" -f "$dir/sshd_config" -E "$dir/sshd.log"; then
    for _ in $(seq 50); do
      [ -s "$dir/sshd.pid" ] && break
      sleep 0.1
    done
    if [ -s "$dir/sshd.pid" ]; then
      echo "export TERMDOKU_SSH_PORT=$port"
      echo "export TERMDOKU_SSH_KEY=$dir/client_key"
      echo "export TERMDOKU_SSH_USER=$(id -un)"
      echo "export TERMDOKU_SSHD_PID=$(cat "$dir/sshd.pid")"
      echo "export TERMDOKU_SSHD_DIR=$dir"
      exit 0
    fi
  fi
done
echo "sshd.sh: could not start sshd; see $dir/sshd.log" >&2
exit 1
