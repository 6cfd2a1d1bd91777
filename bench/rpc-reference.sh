#!/usr/bin/env bash
# Document 000 side by side: the reference RPC AI backend (simple-rpc-ai-backend 0.1.8, its
# basic example server, bench/reference-rpc) and Junction's gateway (with calculator-service,
# as bin/run starts it, tRPC with superjson like the reference), both on loopback, the same
# wrk load against each in turn, after a warm-up pass over every scenario and 2 s again
# right before each measurement: /health at concurrency 100,
# system.health over JSON-RPC and over tRPC at 1 and 100, test.simulateAI (1.5 s) at 10 and
# 100. Prints a Markdown table with the ratios, and the JSON-RPC overhead over /health at
# concurrency 1. The reference's rate limit is raised so that it refuses nothing.
# With STATIC=1 a third target is measured in the same run: nginx (one process, no logging)
# answering every request with a fixed JSON body, what any HTTP server can do at most on this
# machine with this load generator; its column shows which ratios no server could reach.
# Usage: bench/rpc-reference.sh [duration] [warm-up]   (defaults: 10s 5s). Needs wrk, node, npm
# (and nginx with STATIC=1).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10s}
WARMUP=${2:-5s}
REFERENCE_PORT=${REFERENCE_PORT:-18000}
GATEWAY_PORT=${GATEWAY_PORT:-18080}
CALCULATOR_PORT=${CALCULATOR_PORT:-18051}
CALCULATOR_HTTP_PORT=${CALCULATOR_HTTP_PORT:-18081}
STATIC=${STATIC:-0}
STATIC_PORT=${STATIC_PORT:-18070}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }
[ "$STATIC" != 1 ] || command -v nginx >/dev/null || { echo "nginx is missing (apt-get install nginx-light)" >&2; exit 2; }
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$WORK"' EXIT

[ -f gateway-app/target/gateway-app.jar ] && [ -f calculator-service/target/calculator-service-exec.jar ] \
  || ./mvnw -B -q -pl gateway-app,calculator-service -am package -DskipTests >/dev/null
[ -d bench/reference-rpc/node_modules/simple-rpc-ai-backend ] \
  || (cd bench/reference-rpc && npm install --no-save --no-audit --no-fund --ignore-scripts >/dev/null)

wait_http() { for _ in $(seq 1 300); do curl -sf "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "$1 did not answer" >&2; return 1; }

. bench/ports.sh
ports=("$REFERENCE_PORT" "$GATEWAY_PORT" "$CALCULATOR_PORT" "$CALCULATOR_HTTP_PORT")
[ "$STATIC" != 1 ] || ports+=("$STATIC_PORT")
require_free_ports "${ports[@]}"
java -jar calculator-service/target/calculator-service-exec.jar --spring.grpc.server.address=127.0.0.1 \
  --spring.grpc.server.port="$CALCULATOR_PORT" --server.address=127.0.0.1 --server.port="$CALCULATOR_HTTP_PORT" \
  > "$WORK/calculator.log" 2>&1 &
PIDS+=($!)
bin/gateway --server.address=127.0.0.1 --server.port="$GATEWAY_PORT" \
  --junction.gateway.calculator.address="static://127.0.0.1:$CALCULATOR_PORT" --junction.gateway.rpc.trpc-transformer=superjson \
  > "$WORK/gateway.log" 2>&1 &
PIDS+=($!)
(cd bench/reference-rpc && PORT="$REFERENCE_PORT" NODE_ENV=production exec node server.mjs) > "$WORK/reference.log" 2>&1 &
PIDS+=($!)
TARGETS=(reference junction)
if [ "$STATIC" = 1 ]; then
  mkdir -p "$WORK/nginx"
  cat > "$WORK/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$STATIC_PORT;
    location / {
      default_type application/json;
      return 200 '{"jsonrpc":"2.0","result":{"status":"healthy"},"id":1}';
    }
  }
}
CONF
  nginx -c "$WORK/nginx.conf" -e "$WORK/nginx/error.log" > "$WORK/nginx/out.log" 2>&1 &
  PIDS+=($!)
  TARGETS+=(static)
  wait_http "http://127.0.0.1:$STATIC_PORT/health"
fi
wait_http "http://127.0.0.1:$CALCULATOR_HTTP_PORT/actuator/health"
wait_http "http://127.0.0.1:$GATEWAY_PORT/health"
wait_http "http://127.0.0.1:$REFERENCE_PORT/health"

HEALTH='{"jsonrpc":"2.0","method":"system.health","id":1}'
SIMULATE='{"jsonrpc":"2.0","method":"test.simulateAI","params":{},"id":1}'
# name | concurrency | path | body (empty: GET)
SCENARIOS=(
  "GET /health|100|/health|"
  "POST /rpc system.health|1|/rpc|$HEALTH"
  "POST /rpc system.health|100|/rpc|$HEALTH"
  "GET /trpc/system.health|1|/trpc/system.health|"
  "GET /trpc/system.health|100|/trpc/system.health|"
  "POST /rpc test.simulateAI (1.5 s)|10|/rpc|$SIMULATE"
  "POST /rpc test.simulateAI (1.5 s)|100|/rpc|$SIMULATE"
  "GET /health|1|/health|"
)

measure() { # port concurrency path body duration -> one JSON line
  local threads=$(( $2 < 2 ? 1 : 2 ))
  BODY="$4" wrk -t"$threads" -c"$2" -d"$5" --timeout 10s -s bench/reference-rpc/wrk.lua "http://127.0.0.1:$1$3" | tail -1
}

: > "$WORK/results"
for pass in warm-up measure; do
  for scenario in "${SCENARIOS[@]}"; do
    IFS='|' read -r name concurrency path body <<< "$scenario"
    for target in "${TARGETS[@]}"; do
      # A fixed answer does not wait the 1.5 s the procedure does: nothing to compare there.
      [ "$target" = static ] && [[ $body == *simulateAI* ]] && continue
      case $target in reference) port=$REFERENCE_PORT ;; junction) port=$GATEWAY_PORT ;; *) port=$STATIC_PORT ;; esac
      if [ "$pass" = warm-up ]; then
        measure "$port" "$concurrency" "$path" "$body" "$WARMUP" > /dev/null
      else
        measure "$port" "$concurrency" "$path" "$body" 2s > /dev/null
        echo "$name|$concurrency|$target|$(measure "$port" "$concurrency" "$path" "$body" "$DURATION")" >> "$WORK/results"
      fi
    done
  done
done
rss() { awk '/VmHWM/ {printf "%.0f MB", $2 / 1024}' "/proc/$1/status"; }
echo "Peak RSS: reference $(rss "${PIDS[2]}"), gateway $(rss "${PIDS[1]}"), calculator $(rss "${PIDS[0]}")"

python3 - "$WORK/results" <<'PY'
import json, sys
rows = [line.rstrip("\n").split("|", 3) for line in open(sys.argv[1])]
runs = {}
for name, concurrency, target, report in rows:
    runs.setdefault((name, concurrency), {})[target] = json.loads(report)
def rate(r): return r["requests"] / (r["duration_us"] / 1e6)
def ms(us): return f"{us / 1000:.2f}"
def bad(r): return r["socket_errors"] + r["non_2xx"]
static = any("static" in r for r in runs.values())
extra = " static answer (nginx) req/s | p50 ms | static / reference |" if static else ""
print("| scenario | concurrency | reference req/s | p50 ms | p99 ms | Junction req/s | p50 ms | p99 ms | Junction / reference | errors (ref / Junction) |" + extra)
print("|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if static else ""))
for (name, concurrency), r in runs.items():
    ref, jun = r["reference"], r["junction"]
    row = (f"| {name} | {concurrency} | {rate(ref):,.1f} | {ms(ref['p50_us'])} | {ms(ref['p99_us'])} | {rate(jun):,.1f} | "
           f"{ms(jun['p50_us'])} | {ms(jun['p99_us'])} | {rate(jun) / rate(ref):.2f}x | {bad(ref)} / {bad(jun)} |")
    if static:
        st = r.get("static")
        row += f" {rate(st):,.1f} | {ms(st['p50_us'])} | {rate(st) / rate(ref):.2f}x |" if st else " - | - | - |"
    print(row)
health = runs[("GET /health", "1")]["junction"]["p50_us"]
rpc = runs[("POST /rpc system.health", "1")]["junction"]["p50_us"]
print(f"\nJunction's JSON-RPC overhead over /health at concurrency 1: p50 {rpc / 1000:.3f} ms - {health / 1000:.3f} ms = {(rpc - health) / 1000:.3f} ms")
PY
