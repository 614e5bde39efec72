# shellcheck shell=bash
# dozord of one stack (scheduled checks), from the BIN_DIR recorded in stack.env.

DOZORD_PID=$RUN/dozord.pid

dozord_up() { pid_of "$DOZORD_PID" dozord >/dev/null; }

dozord_start() {
  need_bin dozord
  if dozord_up; then
    [ "$BIN_DIR/dozord" -nt "$DOZORD_PID" ] || return 0
    say "dozord was rebuilt: restarting it"
    dozord_stop
  fi
  say "starting dozord"
  setsid "$BIN_DIR/dozord" --config "$CONF" </dev/null >>"$LOG/dozord.log" 2>&1 9>&- &
  local pid=$!
  echo "$pid" >"$DOZORD_PID"
  # Until the subshell has exec'd, its command line is still this script's (see fcgi_settled).
  wait_until 10 eval "dozord_up || gone $pid" || true
  sleep 0.3
  dozord_up || die_log "$LOG/dozord.log" "dozord did not start"
}

dozord_stop() {
  dozord_up || { rm -f "$DOZORD_PID"; return 0; }
  say "stopping dozord"
  # In-flight checks get monitor.timeout (10 s) to finish and be stored; then some slack.
  stop_pid "$DOZORD_PID" dozord 30
  rm -f "$DOZORD_PID"
}
