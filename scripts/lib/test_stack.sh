# shellcheck shell=bash
# A private test stack for scripts/test and scripts/test-variant: started from one build
# directory's binaries, on its own ports and state directory, with the environment the
# integration and browser tests read.

# halt_on_error: the first report ends the process, so it cannot scroll by unnoticed.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1
# Third-party allocations kept for the process's life (tests/lsan.supp says which and why).
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# test_stack_start BIN_DIR STATE HTTPS_PORT HTTP_PORT
test_stack_start() {
  local bin=$1 state=$2 https=$3 http=$4
  scripts/stackctl "$state" stop # a stack left over by an interrupted run
  rm -rf "$state"
  # Notifications go to a fake Telegram Bot API that the tests start on this port (never the
  # real one: tests send nothing off this machine).
  export DOZOR_NOTIFY_TELEGRAM_API_BASE=http://127.0.0.1:$((https + 7))
  # The default sender of e-mail channels without from_addr (test_notify checks it is used).
  export DOZOR_NOTIFY_SMTP_FROM=dozor-tests@example.org
  # nginx's internal listener for dozor-analyzer (analyzer.listen), beside the test ports.
  export DOZOR_ANALYZER_PORT=$((https + 8))
  # nginx's listener for out-of-band interactions (scanner.oast_listen, /oast/ only).
  export DOZOR_OAST_PORT=$((https + 10))
  # Production's HSTS max-age (a year; dev stacks send an hour so a developer's browser does not
  # pin localhost): the self-audit test grades the site as it is deployed, and test browsers are
  # throwaway profiles.
  export DOZOR_HSTS_MAX_AGE=31536000
  BIN_DIR=$bin DOZOR_HTTPS_PORT=$https DOZOR_HTTP_PORT=$http scripts/stackctl "$state" start
  export DOZOR_TEST_BASE_URL=https://127.0.0.1:$https
  export DOZOR_TEST_HTTP_URL=http://127.0.0.1:$http
  export DOZOR_TEST_ANALYZER_URL=http://127.0.0.1:$DOZOR_ANALYZER_PORT
  export DOZOR_TEST_OAST_URL=http://127.0.0.1:$DOZOR_OAST_PORT
  export DOZOR_TEST_STATE=$state
  export DOZOR_TEST_STACKCTL=$PWD/scripts/stackctl
  export DOZOR_TEST_BIN_DIR=$bin
  DOZOR_TEST_ADMIN_PASSWORD=$(cat "$state/admin-password")
  export DOZOR_TEST_ADMIN_PASSWORD
}

# A server process that hits a sanitizer error or crashes dies and is respawned by the pool,
# and the tests may still pass: the logs are the evidence, read after the stack stopped
# (leak reports are written at exit). SIGKILL is not a crash (the resilience test sends it);
# SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL are.
test_stack_crash_reports() {
  local state=$1
  local logs=("$state"/log/*.log)
  local pattern='ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer|runtime error:|killed by signal (4|6|7|8|11)$'
  grep -q -E "$pattern" "${logs[@]}" 2>/dev/null || return 0
  warn "sanitizer reports or crashes in the stack's logs ($state/log):"
  grep -n -E -A 25 -m 3 "$pattern" "${logs[@]}" >&2 || true
  return 1
}
