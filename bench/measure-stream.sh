#!/usr/bin/env bash
# measure-stream.sh: measure.sh (../shared/peers) with bench/loadgen instead of vegeta, which also
# times each answer's first body byte (a stream's first chunk). Same arguments, environment (LABEL,
# WARMUP_S, TIMEOUT, RSS_PID) and JSON line (load1 included), plus first_byte_p50_ms, first_byte_p90_ms and
# first_byte_p99_ms; p50_ms and p99_ms stay the time to the end of the answer ([DONE] for a stream).
# sidebyside-builds.sh runs it in place of measure.sh with MEASURE=bench/measure-stream.sh.
# usage: measure-stream.sh URL BODY_FILE RATE DURATION_S
set -euo pipefail
[ $# -eq 4 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
URL=$1; BODY=$2; RATE=$3; DUR=$4
host=$(printf '%s' "$URL" | sed -E 's#^[a-z]+://##; s#/.*$##; s#^\[([^]]*)\].*#\1#; s#:[0-9]+$##')
case "$host" in
  localhost|::1|127.*) ;;
  *) echo "refusing non-loopback target host '$host'" >&2; exit 3 ;;
esac
[[ "$RATE" =~ ^[0-9]+$ ]] && [ "$RATE" -gt 0 ] && [ "$RATE" -le 50000 ] || { echo "rate must be 1..50000" >&2; exit 2; }
[[ "$DUR" =~ ^[0-9]+$ ]] && [ "$DUR" -gt 0 ] && [ "$DUR" -le 120 ] || { echo "duration must be 1..120 s" >&2; exit 2; }
WARMUP_S=${WARMUP_S:-2}; TIMEOUT=${TIMEOUT:-10s}; LABEL=${LABEL:-}
LOADGEN=${LOADGEN:-/tmp/junction-loadgen}
if [ ! -x "$LOADGEN" ]; then (cd "$(dirname "$0")/loadgen" && go build -o "$LOADGEN" .); fi
tmp=$(mktemp -d /tmp/measure-stream.XXXXXX)
trap 'rm -rf "$tmp"; [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null || true' EXIT

load() { "$LOADGEN" -url "$URL" -body "$BODY" -rate "$RATE" -duration "${1}s" -timeout "$TIMEOUT" \
  -H 'Content-Type: application/json'; }
tree_rss_kb() { # VmRSS (kB) of pid $1 and its descendants
  local pids=("$1") p kids total=0 v
  while [ ${#pids[@]} -gt 0 ]; do
    p=${pids[0]}; pids=("${pids[@]:1}")
    kids=$(cat /proc/"$p"/task/*/children 2>/dev/null || true)
    for k in $kids; do pids+=("$k"); done
    v=$(awk '/^VmRSS:/{print $2}' /proc/"$p"/status 2>/dev/null || true)
    total=$(( total + ${v:-0} ))
  done
  echo "$total"
}

[ "$WARMUP_S" -gt 0 ] && { load "$WARMUP_S" > /dev/null || true; sleep 0.5; }
if [ -n "${RSS_PID:-}" ]; then
  ( peak=0
    while :; do
      r=$(tree_rss_kb "$RSS_PID"); [ "$r" -gt "$peak" ] && peak=$r && echo "$peak" > "$tmp/peak"
      sleep 0.2
    done ) &
  sampler=$!
fi
load1=$(cut -d' ' -f1 /proc/loadavg)
load "$DUR" > "$tmp/report.json"
peak=""
if [ -n "${sampler:-}" ]; then
  kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=""
  peak=$(cat "$tmp/peak" 2>/dev/null || echo 0)
fi
python3 - "$tmp/report.json" "$LABEL" "$URL" "$RATE" "$DUR" "$peak" "$load1" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
label, url, rate, dur, peak, load1 = sys.argv[2:8]
out = {"label": label, "url": url, "rate": int(rate), "duration_s": int(dur), "requests": rep["requests"],
       "achieved_rps": round(rep["rate"] * rep["success"], 1), "success_pct": round(100 * rep["success"], 2)}
for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms", "mean_ms", "first_byte_p50_ms", "first_byte_p90_ms",
          "first_byte_p99_ms", "status_codes"):
    out[k] = rep[k]
out["peak_rss_mb"] = round(int(peak) / 1024, 1) if peak else None
out["load1"] = float(load1)
print(json.dumps(out, separators=(",", ":")))
PY
