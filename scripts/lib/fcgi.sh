# shellcheck shell=bash
# dozor-fcgi and dozorctl of one stack, from the BIN_DIR recorded in stack.env.

FCGI_PID=$RUN/dozor-fcgi.pid

need_bin() {
  [ -x "$BIN_DIR/$1" ] || die "$BIN_DIR/$1 not found: build first (cmake --build $(realpath --relative-to="$PWD" "$BIN_DIR"))"
}

# A dozor.toml written before paths.common_passwords (or audit_data) existed points nowhere for it in a
# checkout (the default is the installed /usr/share path): use this checkout's list.
legacy_paths() {
  if [ -z "${DOZOR_PATHS_COMMON_PASSWORDS:-}" ] && [ -z "$(toml_get paths common_passwords)" ]; then
    export DOZOR_PATHS_COMMON_PASSWORDS=$REPO/share/passwords/common-passwords.txt
  fi
  if [ -z "${DOZOR_PATHS_AUDIT_DATA:-}" ] && [ -z "$(toml_get paths audit_data)" ]; then
    export DOZOR_PATHS_AUDIT_DATA=$REPO/share/audit
  fi
}

dozorctl() {
  legacy_paths
  "$BIN_DIR/dozorctl" --config "$CONF" "$@"
}

migrate() {
  need_bin dozorctl
  dozorctl migrate >>"$LOG/dozorctl.log" 2>&1 || die_log "$LOG/dozorctl.log" "dozorctl migrate failed"
}

# On a fresh state: the first admin, with a random password kept in admin-password (0600).
# If that file was deleted but the account exists, the password is reset instead.
# The e-mail has a dot in its domain: the API's validation (like pydantic's) rejects admin@localhost.
ensure_admin() {
  [ -s "$STATE/admin-password" ] && return 0
  need_bin dozorctl
  local pw
  pw=$(openssl rand -base64 18 | tr '+/' '-_')
  if printf '%s\n' "$pw" | dozorctl user add --username admin --email admin@localhost.localdomain --admin \
    --password-stdin >>"$LOG/dozorctl.log" 2>&1; then
    say "created the admin user 'admin' (password in $STATE/admin-password)"
  elif printf '%s\n' "$pw" | dozorctl user passwd --username admin --password-stdin >>"$LOG/dozorctl.log" 2>&1; then
    say "reset the password of 'admin' (admin-password was missing; new one in $STATE/admin-password)"
  else
    die_log "$LOG/dozorctl.log" "cannot create the admin user"
  fi
  (umask 077 && printf '%s\n' "$pw" >"$STATE/admin-password")
}

fcgi_up() { pid_of "$FCGI_PID" dozor-fcgi >/dev/null; }
# Listening, or dead. Judged by the started pid, not fcgi_up: until the background subshell has
# exec'd, its command line is still this script's and fcgi_up would call it dead.
fcgi_settled() { [ -S "$FCGI_SOCK" ] || gone "$1"; }

fcgi_start() {
  need_bin dozor-fcgi
  legacy_paths
  ensure_nginx_keys
  oast_config
  if fcgi_up; then
    # A rebuilt binary replaces the running one, so scripts/run always serves fresh code.
    [ "$BIN_DIR/dozor-fcgi" -nt "$FCGI_PID" ] || return 0
    say "dozor-fcgi was rebuilt: restarting it"
  fi
  fcgi_stop # the rebuilt one, or the leftover workers of a master that died
  say "starting dozor-fcgi ($BIN_DIR)"
  rm -f "$FCGI_SOCK" # stale after a crash; the master binds a fresh one
  # Own session (setsid): Ctrl-C in scripts/run reaches it only through stackctl stop,
  # and stop can signal the master's whole process group if it hangs.
  setsid "$BIN_DIR/dozor-fcgi" --config "$CONF" </dev/null >>"$LOG/dozor-fcgi.log" 2>&1 9>&- &
  local pid=$!
  echo "$pid" >"$FCGI_PID"
  wait_until 60 fcgi_settled "$pid" || true
  if ! fcgi_up || [ ! -S "$FCGI_SOCK" ]; then
    die_log "$LOG/dozor-fcgi.log" "dozor-fcgi did not start (no socket $FCGI_SOCK)"
  fi
}

fcgi_stop() {
  local group
  group=$(cat "$FCGI_PID" 2>/dev/null) || return 0
  if fcgi_up; then
    say "stopping dozor-fcgi"
    # In-flight requests get server.shutdown_timeout (default 10 s); then some slack.
    stop_pid "$FCGI_PID" dozor-fcgi 30
  fi
  # Workers that outlived their master (killed with SIGKILL, say) would go on serving
  # and holding database connections: they are still in the master's process group.
  stop_group "$group" "dozor-fcgi --config $CONF"
  rm -f "$FCGI_PID"
}

fcgi_reload() {
  local pid
  pid=$(pid_of "$FCGI_PID" dozor-fcgi) || die "dozor-fcgi is not running"
  kill -HUP "$pid"
  say "dozor-fcgi: SIGHUP sent (config reload, workers replaced gracefully)"
}
