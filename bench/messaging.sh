#!/usr/bin/env bash
# The reference table for messaging-service: for each endpoint, 100 requests at
# concurrency 10 (ab) and 10 s at concurrency 20 (wrk), with the service's RSS before and
# after the 10 s run. Needs a running service seeded for the run, e.g. on PostgreSQL:
#   java -jar messaging-service/target/messaging-service.jar --junction.messaging.db.url=... \
#     --junction.messaging.admin-key=$KEY --junction.messaging.seed.instances=10 --junction.messaging.seed.chats=1000 --junction.messaging.seed.messages=1000000
#   java -jar messaging-service/target/messaging-service.jar --junction.messaging.db.url=... \
#     --junction.messaging.admin-key=$KEY --junction.messaging.rate-limit.<group>=100000000 ...
# Usage: KEY=<admin key> PID=<service pid> bench/messaging.sh [base-url]
# Needs ab (apache2-utils) and wrk.
set -euo pipefail
BASE=${1:-http://127.0.0.1:8082/api/v2}
KEY=${KEY:?set KEY to an API key}
PID=${PID:-$(pgrep -f messaging-service.jar | head -1)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CHAT=$(curl -sf -H "x-api-key: $KEY" "$BASE/chats?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
cat > "$WORK/report.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("%d %.1f %.2f %.2f %.2f %.2f\n", summary.requests,
    summary.requests / (summary.duration / 1e6), latency.mean / 1000,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
LUA
rss() { awk '/VmRSS/ {print $2}' /proc/"$PID"/status; }
ENDPOINTS=(
  "Health Check|$BASE/health"
  "Info|$BASE/info"
  "List Instances|$BASE/instances"
  "List Chats|$BASE/chats"
  "List Events|$BASE/events"
  "List Messages|$BASE/messages"
  "List Messages of a chat|$BASE/messages?chatId=$CHAT"
)
for entry in "${ENDPOINTS[@]}"; do
  url=${entry#*|}
  wrk -t2 -c20 -d5s -H "x-api-key: $KEY" "$url" > /dev/null   # warm-up
done
echo "### 100 requests each, concurrency 10 (ab)"
echo
echo "| endpoint | avg ms | p95 ms | p99 ms | requests/s | failed |"
echo "|---|---|---|---|---|---|"
for entry in "${ENDPOINTS[@]}"; do
  name=${entry%%|*}; url=${entry#*|}
  ab -q -n 100 -c 10 -H "x-api-key: $KEY" "$url" > "$WORK/ab.txt"
  avg=$(awk '/Time per request:.*\(mean\)$/ {print $4}' "$WORK/ab.txt")
  rps=$(awk '/Requests per second/ {print $4}' "$WORK/ab.txt")
  p95=$(awk '$1 == "95%" {print $2}' "$WORK/ab.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$WORK/ab.txt")
  failed=$(awk '/Failed requests/ {print $3}' "$WORK/ab.txt")
  non2xx=$(awk '/Non-2xx responses/ {print $3}' "$WORK/ab.txt")
  echo "| $name | $avg | $p95 | $p99 | $rps | $failed${non2xx:+ (non-2xx $non2xx)} |"
done
echo
echo "### 10 s each, concurrency 20 (wrk)"
echo
echo "| endpoint | requests | requests/s | avg ms | p50 ms | p95 ms | p99 ms | RSS delta |"
echo "|---|---|---|---|---|---|---|---|"
for entry in "${ENDPOINTS[@]}"; do
  name=${entry%%|*}; url=${entry#*|}
  before=$(rss)
  read -r n rps avg p50 p95 p99 < <(wrk -t2 -c20 -d10s -s "$WORK/report.lua" -H "x-api-key: $KEY" "$url" | tail -1)
  after=$(rss)
  echo "| $name | $n | $rps | $avg | $p50 | $p95 | $p99 | $(( (after - before) / 1024 )) MB |"
done
