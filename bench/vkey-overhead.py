#!/usr/bin/env python3
"""The gateway's own time per request with a configured key and with a virtual key that has a
budget (reserved, settled and recorded in the key database), from junction_gateway_overhead_seconds.

Starts mock-provider and gateway-app from their built jars on free loopback ports (embedded H2
for the keys, or the PostgreSQL database given), sends sequential chat completions over one
keep-alive connection in alternating rounds, and prints the mean overhead per request of each
kind, and how often the gateway found the virtual key in memory.

Usage: bench/vkey-overhead.py [requests per round, default 2000] [postgresql://user@host:port/db]
       (after ./mvnw -B -q package -DskipTests; the database should be empty)
"""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "bench-admin-key-0123456789"
ROUNDS = 3


def free_ports(count):
    """Distinct free ports: every probe stays bound until all are chosen."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def wait_up(url, seconds=90):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not come up")


def overhead(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/actuator/prometheus").read().decode()
    total = count = 0.0
    for line in text.splitlines():
        if line.startswith("junction_gateway_overhead_seconds_sum{") and 'entry="chat"' in line:
            total += float(line.rsplit(" ", 1)[1])
        if line.startswith("junction_gateway_overhead_seconds_count{") and 'entry="chat"' in line:
            count += float(line.rsplit(" ", 1)[1])
    return total, count


def key_cache(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/actuator/prometheus").read().decode()
    found = {}
    for line in text.splitlines():
        if line.startswith("cache_gets_total{") and 'cache="virtual-keys"' in line:
            found[re.search(r'result="(\w+)"', line).group(1)] = float(line.rsplit(" ", 1)[1])
    return found


def send(port, authorization, n):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"model": "emu/gpt-4o-mini", "max_tokens": 16,
                       "messages": [{"role": "user", "content": "hello"}]})
    for _ in range(n):
        connection.request("POST", "/v1/chat/completions", body,
                           {"Content-Type": "application/json", "Authorization": authorization})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"answered {response.status}")
    connection.close()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    mock_port, gateway_port = free_ports(2)
    work = Path(tempfile.mkdtemp(prefix="vkey-bench-"))
    database = (f"--junction.gateway.virtual-keys.db.url={sys.argv[2]}" if len(sys.argv) > 2
                else f"--junction.gateway.virtual-keys.db.h2-path={work}/gateway")
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
    mock = subprocess.Popen([java, "-jar", str(ROOT / "mock-provider/target/mock-provider-exec.jar"),
                             f"--server.port={mock_port}", "--server.address=127.0.0.1", "--junction.mock.completion-tokens=16"],
                            stdout=open(work / "mock.log", "w"), stderr=subprocess.STDOUT)
    gateway = subprocess.Popen([str(ROOT / "bin/gateway"), f"--server.port={gateway_port}", "--server.address=127.0.0.1",
                                "--junction.gateway.auth.admin-keys[0]=" + ADMIN, "--junction.gateway.cache.enabled=false",
                                database,
                                "--junction.gateway.providers.emu.type=openai",
                                f"--junction.gateway.providers.emu.base-url=http://127.0.0.1:{mock_port}/v1",
                                "--junction.gateway.providers.emu.keys[0].value=sk-emu"],
                               stdout=open(work / "gateway.log", "w"), stderr=subprocess.STDOUT)
    try:
        wait_up(f"http://127.0.0.1:{mock_port}/v1/models")
        wait_up(f"http://127.0.0.1:{gateway_port}/health")
        request = urllib.request.Request(f"http://127.0.0.1:{gateway_port}/admin/v1/keys", method="POST",
                                         data=json.dumps({"name": "bench", "budget": {"usd": 1000, "period": "monthly"}}).encode(),
                                         headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"})
        virtual = json.loads(urllib.request.urlopen(request).read())["key"]
        kinds = {"configured key": f"Bearer {ADMIN}", "virtual key with a budget": f"Bearer {virtual}"}
        for authorization in kinds.values():
            send(gateway_port, authorization, 500)  # warm-up
        sums = {kind: [0.0, 0.0] for kind in kinds}
        for _ in range(ROUNDS):
            for kind, authorization in kinds.items():
                before = overhead(gateway_port)
                send(gateway_port, authorization, n)
                after = overhead(gateway_port)
                sums[kind][0] += after[0] - before[0]
                sums[kind][1] += after[1] - before[1]
        for kind, (total, count) in sums.items():
            print(f"{kind}: {count:.0f} requests, mean gateway overhead {total / count * 1e6:.1f} us")
        cache = key_cache(gateway_port)
        if cache:
            print(f"virtual key lookups: {cache.get('hit', 0):.0f} from memory, {cache.get('miss', 0):.0f} from the database")
    finally:
        for process in (gateway, mock):
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
