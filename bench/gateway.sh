#!/usr/bin/env bash
# Measures the gateway's added latency: the same constant-rate load (bench/loadgen, an open
# model like k6's constant-arrival-rate) sent straight to the provider emulator and through
# the gateway, for each emulator latency. Reports p50/p90/p99/max, success and the
# gateway's peak RSS. The response cache is off (every request here is the same one, so it
# would answer from memory); every other stage of the pipeline is on. Usage: bench/gateway.sh [rate] [duration] [latencies...]
#   defaults: 1000 30s 0 60        Needs Go and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${1:-1000}
DURATION=${2:-30s}
shift $(( $# > 2 ? 2 : $# )) || true
LATENCIES=("$@")
[ $# -gt 0 ] || LATENCIES=(0 60)
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$WORK"' EXIT

./mvnw -B -q -pl gateway-app,mock-provider -am package -DskipTests >/dev/null
(cd bench/loadgen && go build -o "$WORK/loadgen" .)
echo '{"model":"MODEL","messages":[{"role":"user","content":"hi"}],"max_tokens":2}' > "$WORK/body.tmpl"

wait_http() { for _ in $(seq 1 150); do curl -sf "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; return 1; }

attack() { # url model rate duration -> json report
  sed "s#MODEL#$2#" "$WORK/body.tmpl" > "$WORK/body.json"
  "$WORK/loadgen" -url "$1" -rate "$3" -duration "$4" -body "$WORK/body.json" \
    -H "Content-Type: application/json" -H "Authorization: Bearer bench" -timeout 10s
}

row() { # label json rss
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.loads(sys.argv[2])
codes = ", ".join(f"{k}: {v}" for k, v in sorted(r["status_codes"].items()))
print(f"| {sys.argv[1]} | {r['rate']:.0f} | {r['p50_ms']:.3f} | {r['p90_ms']:.3f} | {r['p99_ms']:.3f} | {r['max_ms']:.1f} | {100 * r['success']:.2f}% | {codes} | {sys.argv[3]} |")
PY
}

echo "| target | achieved req/s | p50 ms | p90 ms | p99 ms | max ms | success | status codes | gateway peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|"
. bench/ports.sh
require_free_ports 18090 18080
for latency in "${LATENCIES[@]}"; do
  java -jar mock-provider/target/mock-provider-exec.jar --server.port=18090 --junction.mock.latency-ms="$latency" \
    > "$WORK/mock.log" 2>&1 &
  MOCK=$!; PIDS+=($MOCK)
  java -jar gateway-app/target/gateway-app.jar --server.port=18080 \
    --junction.gateway.providers.emulator.type=openai --junction.gateway.providers.emulator.base-url=http://127.0.0.1:18090/v1 \
    --junction.gateway.providers.emulator.keys[0].value=sk-bench --junction.gateway.cache.enabled=false \
    > "$WORK/gateway.log" 2>&1 &
  GATEWAY=$!; PIDS+=($GATEWAY)
  wait_http http://127.0.0.1:18090/actuator/health
  wait_http http://127.0.0.1:18080/health
  # Warm both JVMs, then measure the emulator alone and through the gateway.
  attack http://127.0.0.1:18080/v1/chat/completions emulator/gpt-4o-mini "$RATE" 20s > /dev/null
  attack http://127.0.0.1:18090/v1/chat/completions gpt-4o-mini "$RATE" 5s > /dev/null
  direct=$(attack http://127.0.0.1:18090/v1/chat/completions gpt-4o-mini "$RATE" "$DURATION")
  through=$(attack http://127.0.0.1:18080/v1/chat/completions emulator/gpt-4o-mini "$RATE" "$DURATION")
  rss=$(awk '/VmHWM/ {printf "%.0f MB", $2 / 1024}' /proc/$GATEWAY/status)
  row "emulator ${latency} ms, direct" "$direct" "-"
  row "emulator ${latency} ms, through gateway" "$through" "$rss"
  kill $MOCK $GATEWAY; wait $MOCK $GATEWAY 2>/dev/null || true
done
