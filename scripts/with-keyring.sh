#!/usr/bin/env bash
# Runs a command with a real Secret Service of its own: a private D-Bus session with gnome-keyring's secrets
# component unlocked, on a throwaway keyring, so the keychain tests never touch (or wait on) a person's keyring.
# Usage: scripts/with-keyring.sh <command> [args...]; exits with the command's exit code.
# When dbus-run-session or gnome-keyring-daemon is missing it says so and runs the command anyway, so the keychain
# tests fail loudly instead of the suite quietly running without them (scripts/test-prerequisites.sh installs both).
set -uo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

missing=()
command -v dbus-run-session >/dev/null || missing+=(dbus-run-session)
command -v gnome-keyring-daemon >/dev/null || missing+=(gnome-keyring-daemon)
if [ ${#missing[@]} -gt 0 ]; then
  echo "with-keyring: ${missing[*]} not found; running without a Secret Service (run scripts/test-prerequisites.sh as root)." >&2
  exec "$@"
fi

home=$(mktemp -d "${TMPDIR:-/tmp}/nova-keyring.XXXXXX")
trap 'rm -rf "$home"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -m 700 "$home/data" "$home/runtime"

# A fresh XDG_DATA_HOME gives a fresh login keyring, created and unlocked with a throwaway password; an existing one
# would stay locked. The daemon's control socket goes in its own runtime folder so parallel runs never share one.
# The daemon runs in the foreground so it can be stopped by its pid: a daemonised one can outlive the session.
# Waiting for it to own the Secret Service name matters: a client calling earlier would make the bus start a
# second, locked daemon.
XDG_DATA_HOME="$home/data" KEYRING_RUNTIME_DIR="$home/runtime" dbus-run-session -- bash -c '
  printf %s nova-desk-tests | XDG_RUNTIME_DIR="$KEYRING_RUNTIME_DIR" \
    gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null &
  daemon=$!
  unset KEYRING_RUNTIME_DIR
  for _ in $(seq 100); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; then
      break
    fi
    if ! kill -0 "$daemon" 2>/dev/null; then
      echo "with-keyring: gnome-keyring-daemon exited; running without a Secret Service." >&2
      break
    fi
    sleep 0.1
  done
  "$@"
  status=$?
  kill "$daemon" 2>/dev/null
  wait "$daemon" 2>/dev/null
  exit "$status"
' with-keyring "$@"
