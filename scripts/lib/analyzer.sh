# shellcheck shell=bash
# dozor-analyzer of one stack (the document analyzer, docs/analyzer.md), from the BIN_DIR
# recorded in stack.env. nginx exposes it on 127.0.0.1:ANALYZER_PORT (analyzer.listen).

ANALYZER_PID=$RUN/dozor-analyzer.pid

analyzer_up() { pid_of "$ANALYZER_PID" dozor-analyzer >/dev/null; }
# Listening, or dead (by the started pid: see fcgi_settled).
analyzer_settled() { [ -S "$ANALYZER_SOCK" ] || gone "$1"; }

# A dozor.toml written before the analyzer existed gets its [analyzer] section (the package
# defaults point at /run and /usr/share, which a dev stack cannot use).
analyzer_config() {
  grep -q '^\[analyzer\]' "$CONF" && return 0
  cat >>"$CONF" <<EOC

[analyzer]
socket = "$ANALYZER_SOCK"
socket_mode = "0666"
model = "$REPO/share/analyzer"
# Development and test stacks fetch {"url": ...} documents from local fixture servers.
fetch_urls = true
# and read images and scanned PDF pages (off in the package: docs/analyzer.md "OCR").
ocr = true
listen = "127.0.0.1:$ANALYZER_PORT"
networks = "127.0.0.1/32,::1/128"
EOC
}

analyzer_start() {
  need_bin dozor-analyzer
  analyzer_config
  ensure_nginx_keys
  if analyzer_up; then
    [ "$BIN_DIR/dozor-analyzer" -nt "$ANALYZER_PID" ] || return 0
    say "dozor-analyzer was rebuilt: restarting it"
  fi
  analyzer_stop
  say "starting dozor-analyzer ($BIN_DIR)"
  rm -f "$ANALYZER_SOCK"
  # One OpenMP thread per OCR page, as the packaged unit sets it (ThreadSanitizer cannot see into libgomp).
  OMP_THREAD_LIMIT=1 setsid "$BIN_DIR/dozor-analyzer" --config "$CONF" </dev/null >>"$LOG/dozor-analyzer.log" 2>&1 9>&- &
  local pid=$!
  echo "$pid" >"$ANALYZER_PID"
  wait_until 60 analyzer_settled "$pid" || true
  if ! analyzer_up || [ ! -S "$ANALYZER_SOCK" ]; then
    die_log "$LOG/dozor-analyzer.log" "dozor-analyzer did not start (no socket $ANALYZER_SOCK)"
  fi
}

analyzer_stop() {
  local group
  group=$(cat "$ANALYZER_PID" 2>/dev/null) || return 0
  if analyzer_up; then
    say "stopping dozor-analyzer"
    stop_pid "$ANALYZER_PID" dozor-analyzer 30
  fi
  stop_group "$group" "dozor-analyzer --config $CONF"
  rm -f "$ANALYZER_PID"
}
