# shellcheck shell=bash
# Helpers shared by scripts/*. Sourced (bash, set -euo pipefail in the caller).

# mariadbd and nginx live in /usr/sbin, which a normal user's PATH often lacks.
export PATH=$PATH:/usr/sbin:/sbin

# Compiles through ccache when it is installed (scripts/setup installs it): the sanitizer
# build and the two clang variants rebuild only what changed, in any checkout of the repo.
# Read by CMake when it first configures a build directory.
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  # Paths below the checkout hash as relative ones, so a fresh clone elsewhere still hits.
  CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  export CCACHE_BASEDIR CCACHE_NOHASHDIR=true
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
fi

say() { printf '%s: %s\n' "${0##*/}" "$*"; }
warn() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() {
  warn "error: $*"
  exit 1
}

# die_log LOG MESSAGE: fail loudly with the end of the log that explains why.
die_log() {
  local log=$1
  shift
  warn "error: $*"
  if [ -s "$log" ]; then
    printf -- '----- last 40 lines of %s -----\n' "$log" >&2
    tail -n 40 "$log" >&2
    printf -- '-----\n' >&2
  fi
  exit 1
}

# alive PID: running and not a zombie (an unreaped zombie still answers kill -0).
alive() {
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]
}
gone() { ! alive "$1"; }

# pid_of PIDFILE NAME: print the pid if it is alive and really is NAME of this stack. The
# checks keep a stale pid file (after a reboot, say) from pointing us at an unrelated
# process, or at the same daemon of another stack: every daemon's command line names a path
# inside its state dir.
pid_of() {
  local pid cmdline
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  alive "$pid" || return 1
  cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  grep -q -- "$2" <<<"$cmdline" || return 1
  [ -z "${STATE:-}" ] || grep -qF -- "$STATE" <<<"$cmdline" || return 1
  echo "$pid"
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.2 s; false on timeout.
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# stop_pid PIDFILE NAME SECONDS: SIGTERM, wait, then SIGKILL the whole process group
# (daemons run in their own session, so the group is the daemon and its children).
stop_pid() {
  local pid
  pid=$(pid_of "$1" "$2") || {
    rm -f "$1"
    return 0
  }
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_until "$3" gone "$pid"; then
    warn "$2 (pid $pid) ignored SIGTERM for $3 s: killing it"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait_until 5 gone "$pid" || true
  fi
  rm -f "$1"
}

# stop_group PGID PATTERN: end what is left of a daemon's process group, matching both
# the group id and the command line (a recycled group id never hits a stranger).
stop_group() {
  [[ $1 =~ ^[0-9]+$ ]] && pgrep -g "$1" -f "$2" >/dev/null || return 0
  warn "stopping leftover processes of group $1 ($2)"
  pkill -TERM -g "$1" -f "$2" || true
  wait_until 10 eval "! pgrep -g $1 -f '$2' >/dev/null" || pkill -KILL -g "$1" -f "$2" || true
}

# A random secret of N bytes as hex: safe inside TOML, SQL and shell without quoting.
random_hex() { openssl rand -hex "$1"; }
