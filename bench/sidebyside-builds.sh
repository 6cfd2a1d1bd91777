#!/usr/bin/env bash
# bench/sidebyside-builds.sh: ../shared/peers/sidebyside.sh with two more gateway targets, so that two
# builds (and a launcher) are measured in the same run: "junction" is the command after "--" (an
# earlier build), "after" runs $AFTER_JAR with java -jar (or $AFTER_LAUNCHER) on :28181, "tuned" runs $TUNED_LAUNCHER
# (for example "env JUNCTION_GATEWAY_JAR=... bin/gateway") on :28183.
#
# Based on sidebyside.sh: the gateway against Bifrost and Helicone in one run: the same emulator, the same
# vegeta constant-arrival load, each target in turn within every repetition, so that the ratios hold
# on a noisy shared machine. Prints one JSON line per measurement (see measure.sh); summarize.py
# turns them into a table of added latency over the direct run of the same repetition.
#
# usage: sidebyside.sh OUTDIR RATE... [-- JUNCTION_COMMAND...]
#   JUNCTION_COMMAND starts the gateway on port 28180 with an OpenAI-type provider "emu" pointed at
#   http://127.0.0.1:28090/v1 and the response cache off; default:
#     java -jar gateway-app/target/gateway-app.jar --server.port=28180 --junction.gateway.cache.enabled=false \
#       --junction.gateway.providers.emu.type=openai --junction.gateway.providers.emu.base-url=http://127.0.0.1:28090/v1 \
#       --junction.gateway.providers.emu.keys[0].value=sk-bench
#   (run from the project root). The gateway is asked for "emu/gpt-4o-mini", the peers for
#   "openai/gpt-4o-mini". Env: REPS (3), DUR seconds (10), WARM_S for the JVM (30), PEERS ("bifrost helicone"),
#   BODY_FILE (a request body with MODEL where the model goes; default a 2-token "hi"), GATEWAY_PREFIX of the
#   settings given to the "after" and "tuned" builds and the default command (junction.gateway; "junction" for
#   builds older than the junction.gateway.* names), MEASURE the measuring script (the peers' measure.sh;
#   bench/measure-stream.sh also times the first byte of each answer, a stream's first chunk).
set -u
G=${GATEWAY_PREFIX:-junction.gateway}
here=${PEERS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/../shared/peers}
OUT=$1; shift; RATES=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do RATES+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
JCMD=("$@")
[ ${#JCMD[@]} -gt 0 ] || JCMD=(java -jar gateway-app/target/gateway-app.jar --server.port=28180 --$G.cache.enabled=false
  --$G.providers.emu.type=openai --$G.providers.emu.base-url=http://127.0.0.1:28090/v1
  --$G.providers.emu.keys[0].value=sk-bench)
[ ${#RATES[@]} -gt 0 ] || RATES=(1000 3000 5000)
REPS=${REPS:-3}; DUR=${DUR:-10}; WARM_S=${WARM_S:-30}; PEERS=${PEERS:-bifrost helicone}
M=${MEASURE:-$here/measure.sh}
. "$(dirname "$0")/ports.sh"
mkdir -p "$OUT"
tmpl=${BODY_FILE:-}
if [ -z "$tmpl" ]; then tmpl=$OUT/body.tmpl
  echo '{"model":"MODEL","messages":[{"role":"user","content":"hi"}],"max_tokens":2}' > "$tmpl"; fi
sed 's#MODEL#openai/gpt-4o-mini#' "$tmpl" > "$OUT/body-peer.json"
sed 's#MODEL#emu/gpt-4o-mini#' "$tmpl" > "$OUT/body-junction.json"
PIDS=(); trap 'for p in "${PIDS[@]}"; do kill $p 2>/dev/null; done; wait 2>/dev/null' EXIT
wait_up() { for _ in $(seq 1 240); do curl -s -o /dev/null "$1" && return 0; sleep 0.5; done; echo "not up: $1" >&2; exit 1; }
declare -A URL PID
URL[direct]=http://127.0.0.1:28090/v1/chat/completions
URL[bifrost]=http://127.0.0.1:28080/v1/chat/completions
URL[helicone]=http://127.0.0.1:28500/ai/chat/completions
URL[junction]=http://127.0.0.1:28180/v1/chat/completions
URL[after]=http://127.0.0.1:28181/v1/chat/completions
URL[tuned]=http://127.0.0.1:28183/v1/chat/completions
TCMD=($TUNED_LAUNCHER --server.port=28183 --$G.cache.enabled=false
  --$G.providers.emu.type=openai --$G.providers.emu.base-url=http://127.0.0.1:28090/v1
  --$G.providers.emu.keys[0].value=sk-bench)
[ -n "${AFTER_LAUNCHER:-}" ] && ALAUNCH=($AFTER_LAUNCHER) || ALAUNCH=(java -jar "$AFTER_JAR")
ACMD=("${ALAUNCH[@]}" --server.port=28181 --$G.cache.enabled=false
  --$G.providers.emu.type=openai --$G.providers.emu.base-url=http://127.0.0.1:28090/v1
  --$G.providers.emu.keys[0].value=sk-bench)

ports=()
for t in direct $PEERS junction after tuned; do u=${URL[$t]#http://127.0.0.1:}; ports+=("${u%%/*}"); done
require_free_ports "${ports[@]}"
"$here/start-emulator.sh" > "$OUT/emulator.log" 2>&1 & PIDS+=($!)
for p in $PEERS; do "$here/start-$p.sh" > "$OUT/$p.log" 2>&1 & PID[$p]=$!; PIDS+=($!); done
"${JCMD[@]}" > "$OUT/junction.log" 2>&1 & PID[junction]=$!; PIDS+=($!)
"${ACMD[@]}" > "$OUT/after.log" 2>&1 & PID[after]=$!; PIDS+=($!)
"${TCMD[@]}" > "$OUT/tuned.log" 2>&1 & PID[tuned]=$!; PIDS+=($!)
wait_up http://127.0.0.1:28090/health
for t in $PEERS junction; do wait_up "${URL[$t]%/*/*/*}/"; done
wait_up http://127.0.0.1:28180/health
wait_up http://127.0.0.1:28181/health
wait_up http://127.0.0.1:28183/health

body() { [ "$1" = junction ] || [ "$1" = after ] || [ "$1" = tuned ] && echo "$OUT/body-junction.json" || echo "$OUT/body-peer.json"; }
WARMUP_S=0 "$M" "${URL[junction]}" "$(body junction)" 1000 "$WARM_S" > /dev/null
WARMUP_S=0 "$M" "${URL[after]}" "$(body after)" 1000 "$WARM_S" > /dev/null
WARMUP_S=0 "$M" "${URL[tuned]}" "$(body tuned)" 1000 "$WARM_S" > /dev/null
for p in $PEERS; do WARMUP_S=0 "$M" "${URL[$p]}" "$(body $p)" 1000 5 > /dev/null; done
for rate in "${RATES[@]}"; do
  for rep in $(seq 1 "$REPS"); do
    for t in direct $PEERS junction after tuned; do
      wait_for_ports
      LABEL="$t r$rate #$rep" RSS_PID=${PID[$t]:-} WARMUP_S=2 "$M" "${URL[$t]}" "$(body $t)" "$rate" "$DUR"
    done
  done
done | tee "$OUT/results.jsonl"
python3 "$here/summarize.py" "$OUT/results.jsonl" | tee "$OUT/summary.md"
