#!/usr/bin/env bash
# Starts every Junction service that has been built, on embedded defaults, in the
# foreground; Ctrl-C stops them all. Logs go to ./logs/<service>.log.
# Build first: ./mvnw -B -q install -DskipTests
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p logs

declare -A JARS=(
  [calculator-service]=calculator-service/target/calculator-service-exec.jar
  [mock-provider]=mock-provider/target/mock-provider-exec.jar
  [gateway-app]=gateway-app/target/gateway-app.jar
  [messaging-service]=messaging-service/target/messaging-service.jar
)

pids=()
trap 'echo; echo "stopping..."; kill "${pids[@]}" 2>/dev/null; wait; exit 0' INT TERM
for service in calculator-service mock-provider gateway-app messaging-service; do
  jar=${JARS[$service]}
  if [ -f "$jar" ]; then
    java -jar "$jar" > "logs/$service.log" 2>&1 &
    pids+=($!)
    echo "started $service (pid $!, log logs/$service.log)"
  fi
done
[ ${#pids[@]} -gt 0 ] || { echo "nothing built: run ./mvnw -B -q install -DskipTests first" >&2; exit 1; }
echo "Ctrl-C stops everything."
wait
