#!/usr/bin/env bash
# Cost of the pipeline's optional stages: the same 1000 req/s load (every body different, so
# the cache always misses) through the gateway to a 0 ms emulator, with rate limits and the
# cache off or on. Reports end-to-end latency and the gateway's own time from its
# junction.gateway.overhead histogram (mean from sum/count, p50 from the buckets).
# Usage: bench/gateway-stages.sh [rate] [duration]
#   GATEWAY_JAR picks another gateway build; CONFIGS ("label|flags" lines) other configurations.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${1:-1000}
DURATION=${2:-20s}
GATEWAY_JAR=${GATEWAY_JAR:-gateway-app/target/gateway-app.jar}
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$WORK"' EXIT
[ -n "${SKIP_BUILD:-}" ] || ./mvnw -B -q -pl gateway-app,mock-provider -am package -DskipTests >/dev/null
(cd bench/loadgen && go build -o "$WORK/loadgen" .)
echo '{"model":"emulator/gpt-4o-mini","messages":[{"role":"user","content":"hi {{n}}"}],"max_tokens":2,"temperature":0}' > "$WORK/body.json"
wait_http() { for _ in $(seq 1 150); do curl -sf "$1" >/dev/null 2>&1 && return 0; sleep 0.2; done; return 1; }
load() { "$WORK/loadgen" -url http://127.0.0.1:18080/v1/chat/completions -rate "$RATE" -duration "$1" -unique \
  -body "$WORK/body.json" -H "Content-Type: application/json"; }
overhead() { curl -s http://127.0.0.1:18080/actuator/prometheus | grep '^junction_gateway_overhead_seconds' > "$1"; }

java -jar mock-provider/target/mock-provider-exec.jar --server.port=18090 > "$WORK/mock.log" 2>&1 &
PIDS+=($!)
wait_http http://127.0.0.1:18090/actuator/health

echo "| configuration | p50 ms | p90 ms | p99 ms | success | gateway own time: mean µs | p50 µs (bucket) |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r label flags; do
  java -jar "$GATEWAY_JAR" --server.port=18080 --junction.gateway.providers.emulator.type=openai \
    --junction.gateway.providers.emulator.base-url=http://127.0.0.1:18090/v1 $flags > "$WORK/gateway.log" 2>&1 &
  GATEWAY=$!
  wait_http http://127.0.0.1:18080/health
  load 15s > /dev/null
  overhead "$WORK/before"
  report=$(load "$DURATION")
  overhead "$WORK/after"
  python3 - "$label" "$report" "$WORK/before" "$WORK/after" <<'PY'
import json, re, sys
r = json.loads(sys.argv[2])
def read(path):
    sums, counts, buckets = 0.0, 0.0, {}
    for line in open(path):
        m = re.match(r'junction_gateway_overhead_seconds_(sum|count|bucket)\{([^}]*)\} (\S+)', line)
        if not m: continue
        kind, labels, value = m.group(1), m.group(2), float(m.group(3))
        if kind == "sum": sums += value
        elif kind == "count": counts += value
        else:
            le = re.search(r'le="([^"]+)"', labels).group(1)
            buckets[le] = buckets.get(le, 0) + value
    return sums, counts, buckets
s0, c0, b0 = read(sys.argv[3]); s1, c1, b1 = read(sys.argv[4])
n = c1 - c0
mean = (s1 - s0) / n * 1e6 if n else float("nan")
p50 = "n/a"
for le in sorted(b1, key=lambda k: float("inf") if k == "+Inf" else float(k)):
    if b1[le] - b0.get(le, 0) >= 0.5 * n:
        p50 = "≤ %.0f" % (float(le) * 1e6) if le != "+Inf" else le
        break
print(f"| {sys.argv[1]} | {r['p50_ms']:.3f} | {r['p90_ms']:.3f} | {r['p99_ms']:.3f} | {100 * r['success']:.2f}% | {mean:.0f} | {p50} |")
PY
  kill $GATEWAY; wait $GATEWAY 2>/dev/null || true
done <<< "${CONFIGS:-pool, retry, breaker, fallback (limits and cache off)|--junction.gateway.cache.enabled=false
+ rate limits (requests and tokens, in memory)|--junction.gateway.cache.enabled=false --junction.gateway.rate-limit.requests=100000000 --junction.gateway.rate-limit.tokens=1000000000
+ cache (every request a miss)|--junction.gateway.cache.enabled=true --junction.gateway.rate-limit.requests=100000000 --junction.gateway.rate-limit.tokens=1000000000}"
