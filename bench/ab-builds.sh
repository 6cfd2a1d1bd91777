#!/usr/bin/env bash
# Two gateway builds in turn, closed-loop: each started with bin/gateway on its own port in front
# of the peers' emulator (../shared/peers), warmed with 15 s of load, then ROUNDS alternating
# rounds of wrk (2 threads, CONNECTIONS connections, 10 s) on /v1/chat/completions with the
# 2-token body, or BODY (a JSON request for the model emu/gpt-4o-mini; streamed ones too). Prints, per round and build: requests/s, p50 and p99, and the gateway process's
# context switches and CPU time per request (from /proc).
# usage: bench/ab-builds.sh JAR_A JAR_B [ROUNDS (7)] [CONNECTIONS (64)]   needs wrk; JAVA_HOME as for bin/gateway
set -euo pipefail
cd "$(dirname "$0")/.."
A=$1; B=$2; ROUNDS=${3:-7}; CONNECTIONS=${4:-64}
PEERS_DIR=${PEERS_DIR:-../shared/peers}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }
WORK=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
BODY=${BODY:-'{"model":"emu/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":2}'}
printf 'wrk.method = "POST"\nwrk.body = os.getenv("BODY")\nwrk.headers["Content-Type"] = "application/json"\n' > "$WORK/chat.lua"
export BODY
. bench/ports.sh
require_free_ports 28090 18181 18182
"$PEERS_DIR/start-emulator.sh" > "$WORK/emulator.log" 2>&1 & PIDS+=($!)
args=(--server.address=127.0.0.1 --junction.gateway.cache.enabled=false --junction.gateway.providers.emu.type=openai
  --junction.gateway.providers.emu.base-url=http://127.0.0.1:28090/v1 '--junction.gateway.providers.emu.keys[0].value=sk-bench')
JUNCTION_GATEWAY_JAR=$A bin/gateway --server.port=18181 "${args[@]}" > "$WORK/a.log" 2>&1 & PIDS+=($!)
JUNCTION_GATEWAY_JAR=$B bin/gateway --server.port=18182 "${args[@]}" > "$WORK/b.log" 2>&1 & PIDS+=($!)
for port in 18181 18182; do
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
done
java_pid() { pgrep -f "server.port=$1" | tail -1; }
switches() { cat /proc/"$(java_pid "$1")"/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
ticks() { awk '{print $14 + $15}' /proc/"$(java_pid "$1")"/stat; }
hz=$(getconf CLK_TCK)
url() { echo "http://127.0.0.1:$1/v1/chat/completions"; }
for port in 18181 18182; do wrk -t2 -c"$CONNECTIONS" -d15s -s "$WORK/chat.lua" "$(url $port)" > /dev/null; done
for round in $(seq 1 "$ROUNDS"); do
  for port in 18181 18182; do
    name=A; [ "$port" = 18182 ] && name=B
    s0=$(switches $port); t0=$(ticks $port)
    out=$(wrk -t2 -c"$CONNECTIONS" -d10s --latency -s "$WORK/chat.lua" "$(url $port)")
    s1=$(switches $port); t1=$(ticks $port)
    n=$(awk '/requests in/ {print $1}' <<< "$out")
    rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out"); p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    awk -v r="$round" -v b="$name" -v rps="$rps" -v p50="$p50" -v p99="$p99" -v n="$n" \
      -v ds=$((s1 - s0)) -v dt=$((t1 - t0)) -v hz="$hz" \
      'BEGIN {printf "round %d %s: %s req/s, p50 %s, p99 %s, %.3f context switches and %.4f ms CPU per request\n", r, b, rps, p50, p99, ds / n, dt * 1000 / hz / n}'
  done
done
