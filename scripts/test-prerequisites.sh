#!/usr/bin/env bash
# System packages the test suite needs beyond Node and npm, installed by the project rather than by hand.
# Idempotent: does nothing when everything is present.
set -euo pipefail

need=()
command -v python3 >/dev/null || need+=(python3)
command -v make >/dev/null || need+=(make)
command -v g++ >/dev/null || need+=(g++)
# The keychain tests talk to a real Secret Service: gnome-keyring on a private session bus (scripts/with-keyring.sh).
command -v dbus-run-session >/dev/null || need+=(dbus-daemon)
command -v gnome-keyring-daemon >/dev/null || need+=(gnome-keyring)
# End-to-end tests drive Debian's Chromium with Playwright (Playwright's own browser download is not reachable).
[ -x /usr/bin/chromium ] || need+=(chromium)

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-prerequisites: missing ${need[*]}; run this script as root (or with sudo) once." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
