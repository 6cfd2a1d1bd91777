#!/usr/bin/env bash
# Runs the gateway jar under several JVM flag sets, one after another in one run, against the
# peers' Go emulator (../shared/peers, or PEERS_DIR): a 20 s warm-up at 1,000/s, then 1,000/s and
# 3,000/s for 10 s each with vegeta, each after a direct run to the emulator; prints the added
# p50/p99 and the peak RSS of each. Needs JDK 17 and Temurin 25 under /usr/lib/jvm.
# Usage (from the project root): bench/jvm-flags.sh OUTDIR [gateway jar] [flag set names...]   (about 80 s per flag set)
set -u
P=${PEERS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/peers}; OUT=$1; JAR=${2:-gateway-app/target/gateway-app.jar}
shift; [ $# -gt 0 ] && shift; ONLY=("$@")
mkdir -p "$OUT"
echo '{"model":"emu/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":2}' > "$OUT/body.json"
. "$(dirname "$0")/ports.sh"
require_free_ports 28090 28182
"$P/start-emulator.sh" > "$OUT/emulator.log" 2>&1 & EMU=$!
trap 'kill $EMU 2>/dev/null; pkill -f "server.port=28182" 2>/dev/null' EXIT
for _ in $(seq 1 60); do curl -s -o /dev/null http://127.0.0.1:28090/health && break; sleep 0.5; done
APP=(--server.port=28182 --junction.gateway.cache.enabled=false --junction.gateway.providers.emu.type=openai
  --junction.gateway.providers.emu.base-url=http://127.0.0.1:28090/v1 --junction.gateway.providers.emu.keys[0].value=sk-bench)
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
declare -A V
V[a-j17-default]="$J17"
V[b-j25-default]="$J25"
V[c-j25-g1-small]="$J25 -Xms64m -Xmx160m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=64m -XX:MaxDirectMemorySize=64m -Xss512k -XX:+UseStringDeduplication"
V[d-j25-serial-small]="$J25 -XX:+UseSerialGC -Xms64m -Xmx160m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=64m -XX:MaxDirectMemorySize=64m -Xss512k"
V[e-j25-zgc]="$J25 -XX:+UseZGC -Xmx256m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=64m -XX:MaxDirectMemorySize=64m"
V[f-j25-parallel-small]="$J25 -XX:+UseParallelGC -Xms64m -Xmx160m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=64m -XX:MaxDirectMemorySize=64m -Xss512k"
V[g-j25-parallel-96]="$J25 -XX:+UseParallelGC -Xms96m -Xmx96m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss256k -XX:ParallelGCThreads=2 -XX:CICompilerCount=2"
V[h-j25-serial-96-arena1]="$J25 -XX:+UseSerialGC -Xms96m -Xmx96m -XX:+UseCompactObjectHeaders -XX:ReservedCodeCacheSize=48m -XX:MaxDirectMemorySize=32m -Xss256k -XX:CICompilerCount=2 -Dio.netty.allocator.numDirectArenas=1 -Dio.netty.allocator.numHeapArenas=1"
V[t-bin-gateway]="env JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 JUNCTION_GATEWAY_JAR=$JAR bin/gateway"
names=("${ONLY[@]}"); [ ${#names[@]} -gt 0 ] || mapfile -t names < <(printf '%s\n' "${!V[@]}" | sort)
for name in "${names[@]}"; do
  if [ "$name" = t-bin-gateway ]; then launch=(${V[$name]}); else launch=(${V[$name]} -jar "$JAR"); fi
  "${launch[@]}" "${APP[@]}" > "$OUT/$name.log" 2>&1 & G=$!
  for _ in $(seq 1 120); do curl -s -o /dev/null http://127.0.0.1:28182/health && break; sleep 0.5; done
  U=http://127.0.0.1:28182/v1/chat/completions
  WARMUP_S=0 "$P/measure.sh" $U "$OUT/body.json" 1000 20 > /dev/null
  WARMUP_S=0 "$P/measure.sh" http://127.0.0.1:28090/v1/chat/completions "$OUT/body.json" 1000 5 > /dev/null
  for rate in 1000 3000; do
    LABEL="direct r$rate" WARMUP_S=1 "$P/measure.sh" http://127.0.0.1:28090/v1/chat/completions "$OUT/body.json" $rate 8
    LABEL="$name r$rate" RSS_PID=$G WARMUP_S=2 "$P/measure.sh" $U "$OUT/body.json" $rate 10
  done
  kill $G; wait $G 2>/dev/null
done | tee "$OUT/results.jsonl"
python3 - "$OUT/results.jsonl" <<'PY'
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
d=None
for r in rows:
    if r["label"].startswith("direct"): d=r; continue
    print(f'{r["label"]:28s} ach {r["achieved_rps"]:7.0f} ok {r["success_pct"]:6.2f} p50 +{r["p50_ms"]-d["p50_ms"]:.3f} p99 +{r["p99_ms"]-d["p99_ms"]:.3f} rss {r.get("peak_rss_mb")}')
PY
