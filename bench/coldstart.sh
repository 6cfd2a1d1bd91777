#!/usr/bin/env bash
# The gateway's first seconds: starts it with each launcher in turn against the peers' Go
# emulator (../shared/peers, or PEERS_DIR), sends 1,000/s with vegeta from the moment its health
# endpoint answers for SECONDS (10), and prints the time to healthy and the added p50/p99 of the
# whole run and of each 2 s window, over a direct run to the emulator. Then the same launcher
# warm (after WARM_S, 30, at the same rate) for the "twice its warm value" comparison.
# Usage (from the project root): bench/coldstart.sh OUTDIR NAME='launcher command' [NAME='...'...]
#   e.g. plain='bin/gateway'  aot='env JUNCTION_GATEWAY_AOT_DIR=/tmp/aot bin/gateway'
set -u
P=${PEERS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/peers}; OUT=$1; shift
SECONDS_RUN=${SECONDS_RUN:-10}; WARM_S=${WARM_S:-30}; RATE=${RATE:-1000}; PORT=28186
VEGETA=${VEGETA:-$P/bin/vegeta}
mkdir -p "$OUT"
echo '{"model":"emu/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":2}' > "$OUT/body.json"
. "$(dirname "$0")/ports.sh"
require_free_ports 28090 "$PORT"
"$P/start-emulator.sh" > "$OUT/emulator.log" 2>&1 & EMU=$!
G=
trap 'kill $EMU 2>/dev/null; [ -n "$G" ] && kill $G 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 60); do curl -s -o /dev/null http://127.0.0.1:28090/health && break; sleep 0.5; done
APP=(--server.port=$PORT --junction.gateway.cache.enabled=false --junction.gateway.providers.emu.type=openai
  --junction.gateway.providers.emu.base-url=http://127.0.0.1:28090/v1 '--junction.gateway.providers.emu.keys[0].value=sk-bench')
D=http://127.0.0.1:28090/v1/chat/completions; U=http://127.0.0.1:$PORT/v1/chat/completions
WARMUP_S=0 "$P/measure.sh" $D "$OUT/body.json" "$RATE" 5 > /dev/null
windows() { # vegeta results -> p50/p99 per 2 s window
  "$VEGETA" encode --to csv < "$1" | python3 -c '
import sys, csv
rows = [(int(r[0]), int(r[2])) for r in csv.reader(sys.stdin)]
t0 = min(t for t, _ in rows)
out = []
for w in range(0, 100):
    lat = sorted(l for t, l in rows if w * 2e9 <= t - t0 < (w + 1) * 2e9)
    if not lat: break
    out.append(f"{2*w}-{2*w+2}s {lat[len(lat)//2]/1e6:.2f}/{lat[int(len(lat)*0.99)]/1e6:.2f}")
print("  ".join(out))'
}
for spec in "$@"; do
  name=${spec%%=*}; cmd=${spec#*=}
  direct=$(WARMUP_S=0 "$P/measure.sh" $D "$OUT/body.json" "$RATE" 5)
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # the launcher command is split on purpose
  $cmd "${APP[@]}" > "$OUT/$name.log" 2>&1 & G=$!
  until curl -sf -o /dev/null http://127.0.0.1:$PORT/actuator/health; do
    kill -0 $G 2>/dev/null || { echo "$name exited"; tail "$OUT/$name.log"; break; }; sleep 0.05; done
  up=$(echo "$(date +%s.%N) - $start" | bc)
  cold=$(KEEP_BIN="$OUT/$name-cold.bin" RSS_PID=$G WARMUP_S=0 "$P/measure.sh" $U "$OUT/body.json" "$RATE" "$SECONDS_RUN")
  WARMUP_S=0 "$P/measure.sh" $U "$OUT/body.json" "$RATE" "$WARM_S" > /dev/null
  direct2=$(WARMUP_S=0 "$P/measure.sh" $D "$OUT/body.json" "$RATE" 5)
  warm=$(RSS_PID=$G WARMUP_S=0 "$P/measure.sh" $U "$OUT/body.json" "$RATE" "$SECONDS_RUN")
  kill $G; wait $G 2>/dev/null; G=
  printf '%s\n' "$direct" "$cold" "$direct2" "$warm" >> "$OUT/results.jsonl"
  python3 - "$name" "$up" "$direct" "$cold" "$direct2" "$warm" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
name, up = sys.argv[1], float(sys.argv[2])
d, c, d2, w = (json.loads(a) for a in sys.argv[3:7])
print(f'{name:12s} healthy {up:5.2f} s  cold: ok {c["success_pct"]:6.2f} +{c["p50_ms"]-d["p50_ms"]:.3f} / +{c["p99_ms"]-d["p99_ms"]:.3f} ms '
      f'rss {c["peak_rss_mb"]} MB  warm: +{w["p50_ms"]-d2["p50_ms"]:.3f} / +{w["p99_ms"]-d2["p99_ms"]:.3f} ms rss {w["peak_rss_mb"]} MB')
PY
  echo "  windows p50/p99 ms: $(windows "$OUT/$name-cold.bin")" | tee -a "$OUT/summary.txt"
done
