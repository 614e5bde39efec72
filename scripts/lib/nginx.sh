# shellcheck shell=bash
# The stack's private nginx: config rendered from nginx/ into STATE/nginx, every path
# it writes (pid, logs, temp files) inside the state dir, so no root is needed.

NGINX_PID=$RUN/nginx.pid
NGINX_ARGS=(-p "$STATE/nginx/" -c "$STATE/nginx/nginx.conf" -e "$LOG/nginx-error.log")

# What depends on dozor.toml (allow lists, the analyzer's listener, body limits) is written by
# dozorctl nginx-config from the validated config and included, as in production: one source.
# DOZOR_NGINX_INTERNAL_NETS (stackctl init) adds to nginx.internal_networks' place.
nginx_render() {
  local inc="$STATE/nginx/from-config"
  ensure_nginx_keys
  oast_config
  env ${INTERNAL_NETS:+DOZOR_NGINX_INTERNAL_NETWORKS="$INTERNAL_NETS"} \
    "$BIN_DIR/dozorctl" --config "$CONF" nginx-config --out "$inc" >"$LOG/nginx-config.log" 2>&1 ||
    die_log "$LOG/nginx-config.log" "dozorctl nginx-config refused the config"
  "$REPO/nginx/render" dev --out "$STATE/nginx" --state "$STATE" --www "$WWW" \
    --https-port "$HTTPS_PORT" --http-port "$HTTP_PORT" --listen "$LISTEN" \
    --worker-user "$NGINX_USER" --bench "$NGINX_BENCH" --config-includes "$inc" \
    --vault-root "$STATE/vault" \
    --analyzer-socket "$ANALYZER_SOCK" --analyzer-listen "$(toml_get analyzer listen)" \
    ${DOZOR_HSTS_MAX_AGE:+--hsts-max-age "$DOZOR_HSTS_MAX_AGE"}
}

# Start, or re-render and reload a running one: templates edited in nginx/ take effect.
nginx_start() {
  nginx_render >/dev/null
  nginx -t -q "${NGINX_ARGS[@]}" 2>"$LOG/nginx-test.log" ||
    die_log "$LOG/nginx-test.log" "the generated nginx config is invalid"
  if pid_of "$NGINX_PID" "nginx: master" >/dev/null; then
    nginx "${NGINX_ARGS[@]}" -s reload
    return 0
  fi
  say "starting nginx on https://127.0.0.1:$HTTPS_PORT (http://127.0.0.1:$HTTP_PORT redirects)"
  # nginx daemonises itself (setsid included); 9>&-: do not inherit stackctl's lock.
  nginx "${NGINX_ARGS[@]}" 9>&- 2>>"$LOG/nginx-error.log" ||
    die_log "$LOG/nginx-error.log" "nginx did not start"
  wait_until 10 pid_of "$NGINX_PID" "nginx: master" >/dev/null ||
    die_log "$LOG/nginx-error.log" "nginx did not start"
}

nginx_stop() {
  local pid group
  group=$(cat "$NGINX_PID" 2>/dev/null) || return 0
  if pid=$(pid_of "$NGINX_PID" "nginx: master"); then
    say "stopping nginx"
    kill -QUIT "$pid" 2>/dev/null || true # graceful: finish the requests in flight
    wait_until 10 gone "$pid" || stop_pid "$NGINX_PID" "nginx: master" 5
  fi
  stop_group "$group" "nginx: (worker|cache)" # workers of a master that was killed
  rm -f "$NGINX_PID"
}

# Ready means the whole path answers: nginx -> dozor-fcgi -> MariaDB (/health is 200
# only with a working database).
health_ok() { [ "$(curl -ks --max-time 5 -o /dev/null -w '%{http_code}' "$1")" = 200 ]; }

wait_ready() {
  local url=https://127.0.0.1:$HTTPS_PORT/health
  if ! wait_until 60 health_ok "$url"; then
    warn "$url answers: $(curl -ks --max-time 5 -w ' (HTTP %{http_code})' "$url" || echo 'nothing')"
    tail -n 20 "$LOG/nginx-error.log" >&2 || true
    die_log "$LOG/dozor-fcgi.log" "the stack is not ready after 60 s"
  fi
}
