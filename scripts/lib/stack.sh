# shellcheck shell=bash
# The state directory of one stack and its stack.env (docs/development.md has the layout).
# Sourced by scripts/stackctl after STATE and REPO are set.

RUN=$STATE/run
LOG=$STATE/log
CONF=$STATE/dozor.toml
STACK_ENV=$STATE/stack.env
MYSQL_SOCK=$RUN/mysqld.sock
FCGI_SOCK=$RUN/fcgi.sock
ANALYZER_SOCK=$RUN/analyzer.sock
ME=$(id -un)

# Unix socket paths are limited to 107 bytes, and nginx's config syntax breaks on spaces.
check_state_path() {
  [[ $STATE =~ ^[A-Za-z0-9._/+-]+$ ]] || die "state dir '$STATE': use a path without spaces or special characters"
  [ "${#MYSQL_SOCK}" -le 107 ] || die "state dir '$STATE' is too deep: $MYSQL_SOCK exceeds the 107-byte unix socket limit"
  if [ -e "$STATE" ] && [ "$(stat -c %u "$STATE")" != "$(id -u)" ]; then
    die "$STATE belongs to $(stat -c %U "$STATE"), not $ME: run as that user, or remove it"
  fi
}

# stack.env: what init decided; every other command only reads it. Values set in the
# environment at init time win over the recorded ones, which win over the defaults.
load_stack_env() {
  [ -f "$STACK_ENV" ] || die "$STATE is not initialised: run 'scripts/stackctl $STATE init'"
  # shellcheck disable=SC1090
  source "$STACK_ENV"
}

# shellcheck disable=SC2034 # the variables are written out through ${!k}
write_stack_env() {
  local bin_dir=${BIN_DIR:-} https=${DOZOR_HTTPS_PORT:-} http=${DOZOR_HTTP_PORT:-}
  local bench=${DOZOR_NGINX_BENCH:-} nets=${DOZOR_NGINX_INTERNAL_NETS:-} repo=$REPO
  local analyzer_port=${DOZOR_ANALYZER_PORT:-}
  local oast_port=${DOZOR_OAST_PORT:-}
  if [ -f "$STACK_ENV" ]; then
    # shellcheck disable=SC1090
    source "$STACK_ENV"
  fi
  REPO=$repo # this checkout, even if the state dir was made by another one
  BIN_DIR=$(realpath -m "${bin_dir:-${BIN_DIR:-$REPO/build/release}}")
  HTTPS_PORT=${https:-${HTTPS_PORT:-8443}}
  HTTP_PORT=${http:-${HTTP_PORT:-8080}}
  NGINX_BENCH=${bench:-${NGINX_BENCH:-off}}
  INTERNAL_NETS=${nets:-${INTERNAL_NETS:-}}
  ANALYZER_PORT=${analyzer_port:-${ANALYZER_PORT:-8181}}
  OAST_PORT=${oast_port:-${OAST_PORT:-8182}}
  WWW=$REPO/www
  LISTEN=127.0.0.1
  # Browsers may try ::1 first for "localhost"; listen there too when the host has IPv6.
  if grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then LISTEN="127.0.0.1 [::1]"; fi
  NGINX_USER=$(pick_nginx_user)
  {
    echo "# Written by scripts/stackctl init; re-running init rewrites it."
    local k
    for k in REPO BIN_DIR WWW HTTPS_PORT HTTP_PORT LISTEN NGINX_USER NGINX_BENCH INTERNAL_NETS ANALYZER_PORT OAST_PORT; do
      printf '%s=%q\n' "$k" "${!k}"
    done
  } >"$STACK_ENV"
}

# Started by root, nginx's master stays root (it binds and reads the TLS key) and the
# workers drop to www-data, which must read www/ and reach run/fcgi.sock (mode 0666 in
# development). A checkout www-data cannot traverse (e.g. under /root, mode 0700) falls
# back to root workers, said aloud. As a normal user no "user" directive is emitted.
pick_nginx_user() {
  [ "$(id -u)" -eq 0 ] || return 0
  # shellcheck disable=SC2016 # $1 and $2 belong to the inner sh
  if id www-data >/dev/null 2>&1 &&
    setpriv --reuid=www-data --regid=www-data --clear-groups -- \
      sh -c 'test -r "$1" && test -x "$1" && test -x "$2"' sh "$WWW" "$RUN"; then
    echo "www-data www-data"
  else
    warn "notice: www-data cannot read $WWW or reach $RUN; nginx workers will run as root (dev stack on loopback only)"
    echo "root root"
  fi
}

# One value from a section of dozor.toml (only the simple key = "value" lines we write).
toml_get() {
  awk -v sect="[$1]" -v key="$2" '
    /^\[/ { in_sect = ($0 == sect) }
    in_sect && $1 == key && $2 == "=" { v = $3; gsub(/^"|"$/, "", v); print v; exit }
  ' "$CONF"
}

write_config() {
  [ -f "$CONF" ] && return 0 # kept across runs: it may hold local edits; delete it to regenerate
  local old_umask
  old_umask=$(umask)
  umask 077 # holds the database password
  cat >"$CONF" <<EOF
# Development config written by scripts/stackctl init. Kept on later runs (delete it
# to regenerate); any key can be overridden by DOZOR_<SECTION>_<KEY>.

[server]
socket = "$FCGI_SOCK"
# 0666: nginx workers run as another user when the stack is started by root.
socket_mode = "0666"
workers = 2
# Where workers share state files (check slots); beside the socket in a dev stack.
state_dir = "$RUN"
# More threads than nginx can pin with kept connections (2 nginx workers x keepalive 32),
# so transient connections always find a free thread (docs/decisions.md).
threads = 48

[database]
socket = "$MYSQL_SOCK"
name = "dozor"
user = "dozor"
password = "$(random_hex 24)"

[auth]
jwt_secret_file = "$STATE/jwt.key"
# Every test and browser session of a stack comes from 127.0.0.1: a wider per-client login
# budget than production's 20 keeps one test's wrong passwords from throttling the next
# (docs/login.md; the throttle tests use addresses of their own).
client_max_failures = 60

[monitor]
# The shortest lease (monitor.timeout + 5): a killed dozord's services return within 15 s.
lease_seconds = 15

[scanner]
# Development and test stacks check and scan local fixture servers.
allow_private_targets = true
# The audit trusts the stack's own certificate, which the TLS fixture servers use (docs/audit.md).
ca_file = "$STATE/tls/cert.pem"

[paths]
migrations = "$REPO/db/migrations"
common_passwords = "$REPO/share/passwords/common-passwords.txt"
audit_data = "$REPO/share/audit"
EOF
  write_vault_config
  umask "$old_umask"
  analyzer_config
}

write_secrets() {
  if [ ! -s "$STATE/jwt.key" ]; then
    (umask 077 && random_hex 32 | tr -d '\n' >"$STATE/jwt.key")
  fi
  if [ ! -s "$STATE/tls/cert.pem" ] || [ ! -s "$STATE/tls/key.pem" ]; then
    (umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
      -days 825 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" \
      -keyout "$STATE/tls/key.pem" -out "$STATE/tls/cert.pem" 2>"$LOG/openssl.log") ||
      die_log "$LOG/openssl.log" "cannot create the self-signed certificate"
  fi
}

# Out-of-band proofs (docs/scan.md "XXE and SSRF"): nginx's listener of its own for /oast/ on
# OAST_PORT (stack.env), which local fixture targets reach; rewritten on every start, so configs
# written before the listener existed (/oast/ was on the HTTP port then) follow it too.
oast_config() {
  [ -f "$CONF" ] && grep -q '^\[scanner\]' "$CONF" || return 0
  sed -i '/^oast_base_url = /d; /^oast_listen = /d' "$CONF"
  sed -i "s|^\[scanner\]\$|[scanner]\noast_listen = \"127.0.0.1:${OAST_PORT:-8182}\"\noast_base_url = \"http://127.0.0.1:${OAST_PORT:-8182}\"|" "$CONF"
}

# The keys nginx proves itself with on the FastCGI sockets (docs/install.md "The FastCGI
# sockets"): one per socket, in STATE, and nginx's includes beside the rendered site (0600: only
# nginx's master reads them). Configs written before they existed get the keys' paths.
# Idempotent: fcgi_start, analyzer_start and nginx_render call it.
ensure_nginx_keys() {
  local name section
  mkdir -p "$STATE/nginx"
  for name in fcgi analyzer; do
    if [ ! -s "$STATE/nginx-$name.key" ]; then
      (umask 077 && random_hex 32 | tr -d '\n' >"$STATE/nginx-$name.key")
    fi
    (umask 077 && printf '# Written by scripts/stackctl from %s\nfastcgi_param DOZOR_NGINX_KEY "%s";\n' \
      "$STATE/nginx-$name.key" "$(cat "$STATE/nginx-$name.key")" >"$STATE/nginx/$name-key.conf.tmp" &&
      mv -f "$STATE/nginx/$name-key.conf.tmp" "$STATE/nginx/$name-key.conf")
    section=server
    [ "$name" = analyzer ] && section=analyzer
    if [ -f "$CONF" ] && grep -q "^\[$section\]" "$CONF" &&
      ! awk -v s="[$section]" '/^\[/ { in_s = ($0 == s) } in_s && $1 == "nginx_key_file" { f = 1 } END { exit !f }' "$CONF"; then
      sed -i "s|^\[$section\]\$|[$section]\nnginx_key_file = \"$STATE/nginx-$name.key\"|" "$CONF"
    fi
  done
}

# The vault's files live in the state dir; mutations are accepted from the stack's own origins.
write_vault_config() {
  cat >>"$CONF" <<EOF

[vault]
root = "$STATE/vault"
origins = "https://127.0.0.1:$HTTPS_PORT https://localhost:$HTTPS_PORT"
EOF
}

stack_init() {
  check_state_path
  mkdir -p "$RUN" "$LOG" "$STATE/tls" "$STATE/nginx"
  write_stack_env
  write_secrets
  write_config
  # Configs written before server.state_dir existed: add it (the default is the package's
  # /var/lib/dozor, which a dev stack cannot write).
  grep -q '^state_dir' "$CONF" || sed -i "s|^\[server\]\$|[server]\nstate_dir = \"$RUN\"|" "$CONF"
  oast_config
  # Configs written before the vault existed: add its section.
  grep -q '^\[vault\]' "$CONF" || write_vault_config
  # The vault's document server (docs/vault.md "Document editing"): a fake one the tests start
  # on HTTPS_PORT + 9, its shared secret in a file, the callback open to 127.0.0.1 only.
  if [ ! -s "$STATE/docserver.key" ]; then
    (umask 077 && random_hex 32 | tr -d '\n' >"$STATE/docserver.key")
  fi
  sed -i '/^docserver_/d' "$CONF"
  sed -i "s|^\[vault\]\$|[vault]\ndocserver_url = \"http://127.0.0.1:${DOZOR_DOCSERVER_PORT:-$((HTTPS_PORT + 9))}\"\ndocserver_jwt_secret_file = \"$STATE/docserver.key\"\ndocserver_networks = \"127.0.0.1/32\"|" "$CONF"
  # The malware check of uploads (docs/vault.md "Malware check") with the repository's test
  # signatures (EICAR and a Dozor test marker): the analyzer loads them in milliseconds, and
  # no signature download is needed.
  sed -i '/^clamav/d' "$CONF"
  sed -i "s|^\[vault\]\$|[vault]\nclamav = true\nclamav_database = \"$REPO/tests/fixtures/clamav\"|" "$CONF"
  # nginx's workers (www-data when started by root) read the files under it.
  mkdir -p "$STATE/vault" && chmod 0755 "$STATE/vault"
  ensure_nginx_keys
  mariadb_init
  nginx_render >/dev/null
  say "notice: this stack sets scanner.allow_private_targets = true (dev/test only: checks may reach loopback and private addresses)"
}
