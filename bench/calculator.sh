#!/usr/bin/env bash
# Measures calculator-service with ghz on loopback beside two bare baselines: a bare
# grpc-java server running the same Calculator implementation and a bare grpc-go server
# (bench/grpc-go-baseline). calculator-service runs in auth modes none, jwt and mtls, with
# metrics and health on. Every server is started and warmed first; then, for each
# concurrency (1, 10, 50, 100), each server gets one DURATION run of Add in turn, so that
# background load drifts over all of them alike. Prints a Markdown table.
# Usage: bench/calculator.sh [duration]
# Needs ghz (go install github.com/bojand/ghz/cmd/ghz@latest), Go, openssl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10s}
GHZ=${GHZ:-$(command -v ghz || echo "$HOME/go/bin/ghz")}
PROTO=calculator-api/src/main/proto/calculator/v1/calculator.proto
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null; rm -rf "$WORK"' EXIT

./mvnw -B -q -pl calculator-service -am package dependency:build-classpath -DskipTests -Dmdep.outputFile="$WORK/cp" >/dev/null
(cd bench/grpc-go-baseline && go build -o "$WORK/grpc-go-baseline" .)

# Certificates for mtls and a token for jwt, made fresh for this run.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=bench-ca \
  -keyout "$WORK/ca.key" -out "$WORK/ca.pem" 2>/dev/null
for name in server client; do
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost \
    -keyout "$WORK/$name.key" -out "$WORK/$name.csr" 2>/dev/null
  openssl x509 -req -in "$WORK/$name.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" -CAcreateserial -days 1 \
    -extfile <(printf 'subjectAltName=DNS:localhost,IP:127.0.0.1') -out "$WORK/$name.pem" 2>/dev/null
done
SECRET=bench-secret-that-is-at-least-32-bytes-long
TOKEN=$(python3 - "$SECRET" <<'PY'
import base64, hashlib, hmac, json, sys, time
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
body = b64(json.dumps({"iss": "bench", "sub": "ghz", "exp": int(time.time()) + 3600}).encode())
sig = b64(hmac.new(sys.argv[1].encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
print(f"{head}.{body}.{sig}")
PY
)

wait_port() { for _ in $(seq 1 150); do (echo > /dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.2; done; return 1; }
service() { # grpc-port http-port args...
  local port=$1 http=$2; shift 2
  java -jar calculator-service/target/calculator-service-exec.jar --spring.grpc.server.port=$port --server.port=$http "$@" \
    > "$WORK/service-$port.log" 2>&1 &
  PIDS+=($!)
}

. bench/ports.sh
require_free_ports 50060 50061 50062 50063 50064 18062 18063 18064
"$WORK/grpc-go-baseline" -port 50060 > "$WORK/go.log" 2>&1 & PIDS+=($!)
java -cp "calculator-service/target/test-classes:calculator-service/target/classes:$(cat "$WORK/cp")" \
  dev.junction.calculator.bench.BareCalculatorServer 50061 > "$WORK/bare.log" 2>&1 & PIDS+=($!)
service 50062 18062
service 50063 18063 --junction.calculator.auth.mode=jwt --junction.calculator.auth.jwt.secret=$SECRET \
  --junction.calculator.auth.jwt.issuer=bench
service 50064 18064 --junction.calculator.auth.mode=mtls --junction.calculator.auth.mtls.certificate=file:$WORK/server.pem \
  --junction.calculator.auth.mtls.private-key=file:$WORK/server.key --junction.calculator.auth.mtls.trusted-ca=file:$WORK/ca.pem
for port in 50060 50061 50062 50063 50064; do wait_port $port; done

LABELS=("bare grpc-go" "bare grpc-java" "calculator-service, auth none" "calculator-service, auth jwt" "calculator-service, auth mtls")
PORTS=(50060 50061 50062 50063 50064)
INSECURE=(--insecure)
JWT=(--insecure --metadata "{\"authorization\":\"Bearer $TOKEN\"}")
MTLS=(--cacert "$WORK/ca.pem" --cert "$WORK/client.pem" --key "$WORK/client.key" --cname localhost)
args_for() { case $1 in 3) echo JWT ;; 4) echo MTLS ;; *) echo INSECURE ;; esac; }

ghz_run() { # index concurrency duration
  local -n extra=$(args_for "$1")
  local conns=$(( $2 < 5 ? $2 : 5 ))
  "$GHZ" --proto "$PROTO" --call calculator.v1.Calculator.Add -d '{"a":5,"b":3}' \
    --concurrency "$2" --connections "$conns" -z "$3" --format json "${extra[@]}" "127.0.0.1:${PORTS[$1]}"
}

for i in "${!PORTS[@]}"; do ghz_run "$i" 50 5s > /dev/null; done   # warm-up

echo "| server | concurrency | requests/s | avg ms | p50 ms | p99 ms | OK | other statuses |"
echo "|---|---|---|---|---|---|---|---|"
for c in 1 10 50 100; do
  for i in "${!PORTS[@]}"; do
    ghz_run "$i" "$c" "$DURATION" > "$WORK/out.json"
    python3 - "${LABELS[$i]}" "$c" "$WORK/out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[3]))
lat = {d["percentage"]: d["latency"] / 1e6 for d in r.get("latencyDistribution") or []}
codes = r.get("statusCodeDistribution", {})
ok = codes.get("OK", 0)
other = ", ".join(f"{k} {v}" for k, v in codes.items() if k != "OK") or "none"
print(f"| {sys.argv[1]} | {sys.argv[2]} | {r['rps']:,.0f} | {r['average'] / 1e6:.2f} | {lat.get(50, 0):.2f} | {lat.get(99, 0):.2f} | {ok:,} | {other} |")
PY
  done
done
