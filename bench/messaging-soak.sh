#!/usr/bin/env bash
# A soak of messaging-service: a steady rate of mixed reads and sends for DURATION, printing
# the service's RSS and its heap after a full GC (jcmd) at the start and at the end.
# Usage: KEY=<admin key> PID=<service pid> bench/messaging-soak.sh [rate] [duration] [base-url]
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${1:-400}
DURATION=${2:-6m}
BASE=${3:-http://127.0.0.1:8082/api/v2}
KEY=${KEY:?set KEY}
PID=${PID:-$(pgrep -f messaging-service.jar | head -1)}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
(cd bench/loadgen && go build -o "$WORK/loadgen" .)
CHAT=$(curl -sf -H "x-api-key: $KEY" "$BASE/chats?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
echo "{\"chatId\":\"$CHAT\",\"text\":\"soak {{n}}\",\"idempotencyKey\":\"soak-$$-{{n}}\"}" > "$WORK/send.json"
heap() { jcmd "$PID" GC.run >/dev/null; jcmd "$PID" GC.heap_info | awk '/used/ {print $0; exit}'; }
rss() { awk '/VmRSS/ {printf "%.0f MB", $2 / 1024}' /proc/"$PID"/status; }
echo "start: RSS $(rss); heap after GC: $(heap)"
"$WORK/loadgen" -method GET -url "$BASE/messages?chatId=$CHAT&limit=50" -rate $((RATE * 3 / 4)) -duration "$DURATION" \
  -H "x-api-key: $KEY" > "$WORK/reads.json" &
"$WORK/loadgen" -url "$BASE/messages" -rate $((RATE / 4)) -duration "$DURATION" -unique -body "$WORK/send.json" \
  -H "x-api-key: $KEY" -H "Content-Type: application/json" > "$WORK/sends.json" &
wait
echo "end:   RSS $(rss); heap after GC: $(heap)"
echo "reads: $(cat "$WORK/reads.json")"
echo "sends: $(cat "$WORK/sends.json")"
