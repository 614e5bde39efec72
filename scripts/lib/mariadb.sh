# shellcheck shell=bash
# A private MariaDB server for one stack: own datadir, own socket, no TCP at all.
# Runs as the invoking user (--user=root is how MariaDB accepts running as root).

MYSQL_PID=$RUN/mariadb.pid

# Admin access is over unix_socket authentication as the invoking OS user, for which
# mariadb-install-db creates an account (root@localhost and $ME@localhost): no admin
# password exists anywhere.
mariadb_admin_sql() { mariadb --no-defaults --socket="$MYSQL_SOCK" --user="$ME"; }

mariadb_init() {
  [ -d "$STATE/mysql/mysql" ] && return 0
  rm -rf "$STATE/mysql" # a half-initialised datadir from an interrupted run
  say "initialising MariaDB in $STATE/mysql"
  mariadb-install-db --no-defaults --auth-root-authentication-method=socket --user="$ME" \
    --datadir="$STATE/mysql" --skip-test-db --skip-name-resolve >"$LOG/mariadb-install.log" 2>&1 ||
    die_log "$LOG/mariadb-install.log" "mariadb-install-db failed"
}

mariadb_alive() { mariadb-admin --no-defaults --socket="$MYSQL_SOCK" --user="$ME" ping >/dev/null 2>&1; }
mariadb_settled() { mariadb_alive || gone "$1"; } # answering, or dead

mariadb_start() {
  local pid
  if ! pid=$(pid_of "$MYSQL_PID" mariadbd); then
    say "starting MariaDB (socket $MYSQL_SOCK)"
    # setsid: its own session, so a Ctrl-C meant for scripts/run does not hit it directly;
    # 9>&-: do not inherit stackctl's lock.
    setsid mariadbd --no-defaults --user="$ME" --datadir="$STATE/mysql" \
      --socket="$MYSQL_SOCK" --pid-file="$MYSQL_PID" --log-error="$LOG/mariadb.log" \
      --skip-networking --skip-name-resolve \
      --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
      --innodb-buffer-pool-size=128M --innodb-flush-log-at-trx-commit=2 \
      </dev/null >>"$LOG/mariadb.log" 2>&1 9>&- &
    pid=$!
  fi
  # Already running or just started: either way, wait until it answers (or dies).
  wait_until 60 mariadb_settled "$pid" || true
  mariadb_alive || die_log "$LOG/mariadb.log" "MariaDB did not start"
}

mariadb_stop() {
  pid_of "$MYSQL_PID" mariadbd >/dev/null || return 0
  say "stopping MariaDB"
  # A clean shutdown flushes InnoDB; SIGTERM (stop_pid) is the same thing if this fails.
  mariadb-admin --no-defaults --socket="$MYSQL_SOCK" --user="$ME" --shutdown-timeout=60 shutdown \
    >/dev/null 2>&1 || true
  stop_pid "$MYSQL_PID" mariadbd 60
}

# The application database and its account, with the password from dozor.toml.
# Idempotent, so it runs on every start (and repairs a hand-edited password).
mariadb_provision() {
  local db user pw
  db=$(toml_get database name)
  user=$(toml_get database user)
  pw=$(toml_get database password)
  [[ "$db$user$pw" =~ ^[A-Za-z0-9_]+$ ]] || die "database name/user/password in $CONF: letters, digits and _ only"
  mariadb_admin_sql >"$LOG/mariadb-provision.log" 2>&1 <<SQL || die_log "$LOG/mariadb-provision.log" "cannot create database $db"
CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$user'@'localhost' IDENTIFIED BY '$pw';
ALTER USER '$user'@'localhost' IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON \`$db\`.* TO '$user'@'localhost';
SQL
}
