#!/usr/bin/env bash
# Measures what the gateway adds to Anthropic's Messages API: the same constant-rate load
# (bench/loadgen, an open model) of `POST /v1/messages` sent straight to the emulator's Anthropic
# endpoint and through the gateway's `/v1/messages` to an `anthropic` provider (passed through
# natively), taking turns in every repetition. Reports per repetition and rate p50/p90/p99/max and
# success, then the medians of the added p50 and p99 and the gateway's peak RSS. The response
# cache is off; every other stage of the pipeline is on. The gateway runs under bin/gateway.
# Usage: bench/messages.sh [duration] [repetitions] [rates...]   defaults: 10s 3 1000 3000
# Needs Go and python3; run after ./mvnw -B -q package -DskipTests.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10s}
REPS=${2:-3}
shift $(( $# > 2 ? 2 : $# )) || true
RATES=("$@")
[ $# -gt 0 ] || RATES=(1000 3000)
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$WORK"' EXIT

(cd bench/loadgen && go build -o "$WORK/loadgen" .)
MOCK_PORT=18290 GATEWAY_PORT=18280
. bench/ports.sh
require_free_ports "$MOCK_PORT" "$GATEWAY_PORT"
java -jar mock-provider/target/mock-provider-exec.jar --server.address=127.0.0.1 --server.port=$MOCK_PORT \
  > "$WORK/mock.log" 2>&1 &
PIDS+=($!)
bin/gateway --server.address=127.0.0.1 --server.port=$GATEWAY_PORT --junction.gateway.cache.enabled=false \
  --junction.gateway.providers.claude.type=anthropic --junction.gateway.providers.claude.base-url=http://127.0.0.1:$MOCK_PORT \
  '--junction.gateway.providers.claude.keys[0].value=sk-bench' > "$WORK/gateway.log" 2>&1 &
GATEWAY=$!; PIDS+=($GATEWAY)

wait_http() { for _ in $(seq 1 150); do curl -sf "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "not up: $1" >&2; return 1; }
wait_http http://127.0.0.1:$MOCK_PORT/actuator/health
wait_http http://127.0.0.1:$GATEWAY_PORT/health

body() { echo "{\"model\":\"$1\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}" > "$WORK/$2.json"; }
body claude-haiku-4-5 direct
body claude/claude-haiku-4-5 gateway
attack() { # name url rate duration
  "$WORK/loadgen" -url "$2" -rate "$3" -duration "$4" -body "$WORK/$1.json" -H "Content-Type: application/json" \
    -H "anthropic-version: 2023-06-01" -H "x-api-key: sk-bench" -timeout 10s
}
DIRECT=http://127.0.0.1:$MOCK_PORT/v1/messages
THROUGH=http://127.0.0.1:$GATEWAY_PORT/v1/messages

# Warm both JVMs first.
attack gateway "$THROUGH" "${RATES[0]}" 20s > /dev/null
attack direct "$DIRECT" "${RATES[0]}" 5s > /dev/null
for rate in "${RATES[@]}"; do
  for rep in $(seq 1 "$REPS"); do
    if [ $((rep % 2)) -eq 1 ]; then order="direct gateway"; else order="gateway direct"; fi
    for target in $order; do
      url=$DIRECT; [ "$target" = gateway ] && url=$THROUGH
      printf '%s %s %s ' "$rate" "$rep" "$target"
      attack "$target" "$url" "$rate" "$DURATION"
    done
  done
done > "$WORK/results.txt"
RSS=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' /proc/$GATEWAY/status)

python3 - "$WORK/results.txt" "$RSS" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    rate, rep, target, report = line.split(" ", 3)
    rows[(int(rate), int(rep), target)] = json.loads(report)
print("| offered/s | repetition | target | sent/s | success | p50 ms | p90 ms | p99 ms | max ms |")
print("|---|---|---|---|---|---|---|---|---|")
for (rate, rep, target), r in sorted(rows.items()):
    print(f"| {rate:,} | {rep} | {target} | {r['rate']:,.0f} | {100 * r['success']:.2f}% | {r['p50_ms']:.3f} | "
          f"{r['p90_ms']:.3f} | {r['p99_ms']:.3f} | {r['max_ms']:.1f} |")
print()
print("| offered/s | added p50 ms (median) | added p99 ms (median) | gateway success | gateway peak RSS |")
print("|---|---|---|---|---|")
for rate in sorted({k[0] for k in rows}):
    reps = sorted({k[1] for k in rows if k[0] == rate})
    added50 = statistics.median(rows[(rate, i, "gateway")]["p50_ms"] - rows[(rate, i, "direct")]["p50_ms"] for i in reps)
    added99 = statistics.median(rows[(rate, i, "gateway")]["p99_ms"] - rows[(rate, i, "direct")]["p99_ms"] for i in reps)
    success = min(rows[(rate, i, "gateway")]["success"] for i in reps)
    print(f"| {rate:,} | {added50:+.3f} | {added99:+.3f} | {100 * success:.2f}% (lowest) | {sys.argv[2]} MB |")
PY
