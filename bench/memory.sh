#!/usr/bin/env bash
# Where the gateway's memory goes, per JVM option set: starts bin/gateway (with Native Memory
# Tracking when NMT=1) against the peers' Go emulator (../shared/peers, or PEERS_DIR), warms it
# for 20 s at 1,000/s, then measures each of RATES (default "1000 3000 5000") for 10 s with
# vegeta, and after each rate records the RSS, its high-water mark, the thread count, the NMT
# summary and the threads by name. Prints one line per rate: added p50/p99 over a direct run,
# success, peak RSS of the run and VmHWM so far.
# Usage (from the project root): bench/memory.sh OUTDIR NAME='JAVA OPTIONS' [NAME='...'...]
#   the options go to bin/gateway as JUNCTION_GATEWAY_JAVA_OPTS, except leading VAR=value words,
#   which go to its environment (MALLOC_ARENA_MAX=2, JUNCTION_GATEWAY_HEAP=96m); JAVA_HOME as for bin/gateway;
#   JUNCTION_GATEWAY_JAR the jar (default gateway-app/target/gateway-app.jar); NMT (1) 0 to run without.
set -u
P=${PEERS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/peers}; OUT=$1; shift
RATES=${RATES:-1000 3000 5000}; NMT=${NMT:-1}; PORT=28184
jcmd=${JAVA_HOME:+$JAVA_HOME/bin/}jcmd
. "$(dirname "$0")/ports.sh"
mkdir -p "$OUT"
echo '{"model":"emu/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":2}' > "$OUT/body.json"
require_free_ports 28090 "$PORT"
"$P/start-emulator.sh" > "$OUT/emulator.log" 2>&1 & EMU=$!
G=
trap 'kill $EMU 2>/dev/null; [ -n "$G" ] && kill $G 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 60); do curl -s -o /dev/null http://127.0.0.1:28090/health && break; sleep 0.5; done
APP=(--server.port=$PORT --junction.gateway.cache.enabled=false --junction.gateway.providers.emu.type=openai
  --junction.gateway.providers.emu.base-url=http://127.0.0.1:28090/v1 '--junction.gateway.providers.emu.keys[0].value=sk-bench')
D=http://127.0.0.1:28090/v1/chat/completions; U=http://127.0.0.1:$PORT/v1/chat/completions
status() { awk -v n="$1" -v r="$2" '/^(VmRSS|VmHWM|RssAnon|RssFile|Threads):/{o=o" "$1$2} END{print n" "r":"o}' /proc/"$G"/status; }
for spec in "$@"; do
  name=${spec%%=*}; opts=${spec#*=}; envs=()
  while [[ $opts =~ ^([A-Z_]+=[^ ]*)\ *(.*)$ ]]; do envs+=("${BASH_REMATCH[1]}"); opts=${BASH_REMATCH[2]}; done
  [ "$NMT" = 1 ] && opts="-XX:NativeMemoryTracking=summary $opts"
  start=$(date +%s.%N)
  env "${envs[@]}" JUNCTION_GATEWAY_JAVA_OPTS="$opts" bin/gateway "${APP[@]}" > "$OUT/$name.log" 2>&1 & G=$!
  for _ in $(seq 1 240); do curl -s -o /dev/null http://127.0.0.1:$PORT/actuator/health && break; sleep 0.25; done
  echo "$name healthy after $(echo "$(date +%s.%N) - $start" | bc) s" >> "$OUT/status.txt"
  status "$name" started >> "$OUT/status.txt"
  WARMUP_S=0 "$P/measure.sh" $U "$OUT/body.json" 1000 20 > /dev/null
  for rate in $RATES; do
    wait_for_ports
    d=$(LABEL="direct" WARMUP_S=1 "$P/measure.sh" $D "$OUT/body.json" $rate 5)
    g=$(LABEL="$name r$rate" RSS_PID=$G WARMUP_S=2 "$P/measure.sh" $U "$OUT/body.json" $rate 10)
    echo "$d" >> "$OUT/results.jsonl"; echo "$g" >> "$OUT/results.jsonl"
    status "$name" "r$rate" >> "$OUT/status.txt"
    [ "$NMT" = 1 ] && "$jcmd" $G VM.native_memory summary > "$OUT/$name-r$rate.nmt" 2>&1
    "$jcmd" $G Thread.print 2>/dev/null | sed -n 's/^"\([^"]*\)".*/\1/p' | sed -E 's/[-#]?[0-9]+$//; s/[0-9]+$//' \
      | sort | uniq -c | sort -rn > "$OUT/$name-r$rate.threads"
    python3 - "$d" "$g" <<'PY'
import json, sys
d, g = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f'{g["label"]:24s} ach {g["achieved_rps"]:6.0f} ok {g["success_pct"]:6.2f} '
      f'p50 +{g["p50_ms"]-d["p50_ms"]:.3f} p99 +{g["p99_ms"]-d["p99_ms"]:.3f} peak rss {g["peak_rss_mb"]} MB')
PY
  done | tee -a "$OUT/summary.txt"
  tail -n 1 "$OUT/status.txt" | tee -a "$OUT/summary.txt"
  "$jcmd" $G GC.class_histogram 2>/dev/null | head -n 25 > "$OUT/$name.histogram"
  kill $G; wait $G 2>/dev/null; G=
done
