"""The README's run command, run in a fresh clone as a new user runs it, every service called
through a real client, then stopped with SIGINT as Ctrl-C stops it.

Started by .ci/run-as-new-user, which clones the commit under test and provides the clients (the
official OpenAI and Anthropic Python SDKs in a virtual environment, grpcurl). Exits 1, showing the
command's output and the end of every service log, when a step fails or anything is left running.

Usage: python new_user.py CLONE GRPCURL
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import anthropic
import openai

READY_LINE = "Ctrl-C stops everything"
# The build and the start together, on a loaded CI machine.
READY_TIMEOUT = 20 * 60
STOP_TIMEOUT = 90


def readme_run_command(readme):
    """The first shell command of the README's set-up section: the one that builds and runs."""
    section = re.search(r"^## Set-up on a fresh machine$(.*?)^## ", readme, re.MULTILINE | re.DOTALL)
    if not section:
        raise RuntimeError("README.md has no '## Set-up on a fresh machine' section")
    block = re.search(r"^```bash\n(.*?)^```", section.group(1), re.MULTILINE | re.DOTALL)
    if not block or "bin/run" not in block.group(1):
        raise RuntimeError("the README's set-up section does not start with a bash block running bin/run")
    return block.group(1).strip()


def free_ports(names):
    """A distinct free loopback port for each name: every probe stays bound until all are chosen."""
    probes = [socket.socket() for _ in names]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return {name: probe.getsockname()[1] for name, probe in zip(names, probes)}
    finally:
        for probe in probes:
            probe.close()


def listening(port):
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def http(method, url, body=None, headers=None, timeout=30):
    """(status, parsed JSON or text) of one request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


class Session:
    """The README's command in its own session and process group, as a terminal runs it."""

    def __init__(self, clone, command):
        self.clone = clone
        self.command = command
        self.ports = free_ports(("gateway", "calculator_grpc", "calculator_http", "mock", "messaging"))
        self.output = []
        self.ready = threading.Event()

    def start(self):
        p = self.ports
        # Free ports, since other builds may be running here; everything else stays at its default.
        env = dict(os.environ, GATEWAY_PORT=str(p["gateway"]), CALCULATOR_GRPC_PORT=str(p["calculator_grpc"]),
                   CALCULATOR_HTTP_PORT=str(p["calculator_http"]), MOCK_PROVIDER_PORT=str(p["mock"]),
                   MESSAGING_PORT=str(p["messaging"]))
        for name in list(env):
            if name.startswith(("JUNCTION_", "OPENAI_", "ANTHROPIC_")):
                del env[name]

        def own_session():
            os.setsid()
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        self.started = time.monotonic()
        self.process = subprocess.Popen(["bash", "-c", self.command], cwd=self.clone, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=own_session)
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(READY_TIMEOUT):
            raise AssertionError(f"the README's command did not report the system up within {READY_TIMEOUT} s")
        if self.process.poll() is not None:
            raise AssertionError(f"the README's command exited with status {self.process.returncode} "
                                 "before reporting the system up")
        print(f"  up after {time.monotonic() - self.started:.0f} s (build and start)", flush=True)

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith(READY_LINE):
                self.ready.set()
        self.ready.set()

    def admin_key(self):
        found = re.search(r"admin key (\S+) \(kept in", "".join(self.output))
        expect(found, "bin/run printed no messaging admin key")
        return found.group(1)

    def url(self, name, path):
        return f"http://127.0.0.1:{self.ports[name]}{path}"

    def interrupt(self):
        """SIGINT to the process group, as Ctrl-C in a terminal; the exit status of the command."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {STOP_TIMEOUT} s after SIGINT")

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def leftovers(self):
        """What is still running or listening after the stop."""
        found = []
        try:
            os.killpg(self.process.pid, 0)
            found.append(f"processes left in group {self.process.pid}")
        except ProcessLookupError:
            pass
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit() or int(proc.name) == os.getpid():
                continue
            try:
                cwd = os.readlink(proc / "cwd")
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if cwd.startswith(str(self.clone)) or str(self.clone) in cmdline:
                found.append(f"process {proc.name}: {cmdline[:200]}")
        found += [f"port {port} ({name}) still listening" for name, port in self.ports.items() if listening(port)]
        return found

    def show_logs(self):
        print("---- output of the README's command ----")
        print("".join(self.output[-80:]), end="")
        for log in sorted((self.clone / "logs").glob("*.log")):
            lines = log.read_text(errors="replace").splitlines()
            print(f"---- {log.relative_to(self.clone)} (last 60 of {len(lines)} lines) ----")
            print("\n".join(lines[-60:]))


def check_gateway(session):
    client = openai.OpenAI(base_url=session.url("gateway", "/v1"), api_key="no-key-configured", max_retries=0)
    models = [model.id for model in client.models.list()]
    expect("mock/echo-1" in models, f"/v1/models lists no mock/echo-1: {models}")

    answer = client.chat.completions.create(model="mock/echo-1", messages=[{"role": "user", "content": "hello"}])
    expect(answer.choices[0].message.content, f"mock/echo-1 answered no text: {answer}")
    expect(answer.usage and answer.usage.total_tokens > 0, f"mock/echo-1 answered no usage: {answer}")

    pieces = [chunk.choices[0].delta.content or "" for chunk in client.chat.completions.create(
        model="mock/echo-1", stream=True, messages=[{"role": "user", "content": "stream please"}]) if chunk.choices]
    expect("".join(pieces), "the mock/echo-1 stream carried no text")

    answer = client.chat.completions.create(model="emulator/gpt-4o-mini",
                                            messages=[{"role": "user", "content": "hello emulator"}])
    text = answer.choices[0].message.content
    expect(text.startswith("Received 2 words: hello emulator"), f"emulator/gpt-4o-mini answered {text!r}")

    chunks = list(client.chat.completions.create(model="emulator/gpt-4o-mini", stream=True,
                                                 stream_options={"include_usage": True},
                                                 messages=[{"role": "user", "content": "hello"}]))
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in chunks if chunk.choices)
    expect(streamed.startswith("Received 1 word: hello"), f"the emulator stream carried {streamed!r}")
    expect(chunks[-1].usage and chunks[-1].usage.completion_tokens > 0, "the emulator stream ended without usage")

    tool = {"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    answer = client.chat.completions.create(model="emulator/gpt-4o-mini", tools=[tool],
                                            messages=[{"role": "user", "content": "weather in Paris?"}])
    calls = answer.choices[0].message.tool_calls
    expect(calls and calls[0].function.name == "get_weather", f"no tool call through the gateway: {answer}")

    try:
        client.chat.completions.create(model="nowhere/x", messages=[{"role": "user", "content": "hi"}])
        raise AssertionError("an unknown provider was answered")
    except openai.NotFoundError as error:
        expect(error.body and error.body.get("code") == "model_not_found", f"unknown provider: {error.body}")

    claude = anthropic.Anthropic(base_url=session.url("gateway", ""), api_key="no-key-configured", max_retries=0)
    message = claude.messages.create(model="emulator/gpt-4o-mini", max_tokens=64,
                                     messages=[{"role": "user", "content": "hello emulator"}])
    text = message.content[0].text
    expect(text.startswith("Received 2 words: hello emulator"), f"/v1/messages answered {text!r}")
    with claude.messages.stream(model="emulator/gpt-4o-mini", max_tokens=64,
                                messages=[{"role": "user", "content": "hello"}]) as stream:
        streamed = "".join(stream.text_stream)
        final = stream.get_final_message()
    expect(streamed.startswith("Received 1 word: hello"), f"the /v1/messages stream carried {streamed!r}")
    expect(final.stop_reason == "end_turn" and final.usage.output_tokens > 0, f"/v1/messages stream ended {final}")


def check_rpc(session):
    status, answer = http("POST", session.url("gateway", "/rpc"),
                          {"jsonrpc": "2.0", "method": "calculator.add", "params": [2, 3], "id": 1})
    expect(status == 200 and answer.get("result") == 5, f"JSON-RPC calculator.add: {status} {answer}")
    status, answer = http("POST", session.url("gateway", "/rpc"), [
        {"jsonrpc": "2.0", "method": "system.health", "id": "h"},
        {"jsonrpc": "2.0", "method": "calculator.divide", "params": {"a": 1, "b": 0}, "id": "d"}])
    expect(status == 200 and isinstance(answer, list) and len(answer) == 2, f"JSON-RPC batch: {status} {answer}")
    expect(answer[0].get("result", {}).get("status") == "healthy", f"JSON-RPC system.health: {answer[0]}")
    expect(answer[1].get("error", {}).get("code") == -32602, f"JSON-RPC division by zero: {answer[1]}")

    query = urllib.parse.quote(json.dumps({"a": 6, "b": 7}))
    status, answer = http("GET", session.url("gateway", f"/trpc/calculator.multiply?input={query}"))
    expect(status == 200 and answer == {"result": {"data": 42}}, f"tRPC calculator.multiply: {status} {answer}")
    status, answer = http("POST", session.url("gateway", "/trpc/ai.generateText"), {"content": "hello trpc"})
    expect(status == 200 and answer.get("result", {}).get("data", {}).get("text"),
           f"tRPC ai.generateText: {status} {answer}")


def check_calculator(session, grpcurl):
    target = f"127.0.0.1:{session.ports['calculator_grpc']}"

    def call(*args):
        return subprocess.run([grpcurl, "-plaintext", *args], capture_output=True, text=True, timeout=30)

    listed = call(target, "list")
    expect(listed.returncode == 0 and "calculator.v1.Calculator" in listed.stdout.split(),
           f"grpcurl list (reflection): {listed.stdout}{listed.stderr}")
    # The README's own example.
    added = call("-d", '{"a":5,"b":3}', target, "calculator.v1.Calculator/Add")
    expect(added.returncode == 0 and json.loads(added.stdout) == {"result": 8},
           f"grpcurl Add: {added.stdout}{added.stderr}")
    health = call("-d", '{"service":"calculator.v1.Calculator"}', target, "grpc.health.v1.Health/Check")
    expect(health.returncode == 0 and json.loads(health.stdout) == {"status": "SERVING"},
           f"grpcurl health: {health.stdout}{health.stderr}")
    divided = call("-d", '{"a":1,"b":0}', target, "calculator.v1.Calculator/Divide")
    expect(divided.returncode != 0 and "InvalidArgument" in divided.stderr,
           f"grpcurl Divide by zero: {divided.stdout}{divided.stderr}")


def check_messaging(session):
    api = session.url("messaging", "/api/v2")
    key = {"x-api-key": session.admin_key()}
    status, instance = http("POST", f"{api}/instances", {"name": "new user", "channel": "whatsapp"}, key)
    expect(status == 201, f"create an instance: {status} {instance}")
    status, chat = http("POST", f"{api}/chats", {"instanceId": instance["id"], "remoteId": "+100"}, key)
    expect(status == 201, f"create a chat: {status} {chat}")
    status, message = http("POST", f"{api}/messages", {"chatId": chat["id"], "text": "hello from a new user"}, key)
    expect(status in (200, 201, 202), f"send a message: {status} {message}")
    status, page = http("GET", f"{api}/messages?chatId={chat['id']}", headers=key)
    texts = [item.get("text") for item in page.get("items", [])] if status == 200 else []
    expect("hello from a new user" in texts, f"list the chat's messages: {status} {page}")
    status, refused = http("GET", f"{api}/instances")
    expect(status == 401, f"a request without a key: {status} {refused}")


def check_emulator(session):
    client = openai.OpenAI(base_url=session.url("mock", "/v1"), api_key="sk-anything", max_retries=0)
    answer = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}])
    expect(answer.choices[0].message.content.startswith("Received 1 word: hi"), f"emulator chat: {answer}")
    expect(client.models.retrieve("gpt-4o-mini").id == "gpt-4o-mini", "emulator GET /v1/models/gpt-4o-mini")
    response = client.responses.create(model="gpt-4o-mini", input="hello responses")
    expect(response.output_text.startswith("Received 2 words"), f"emulator responses: {response}")
    with client.responses.stream(model="gpt-4o-mini", input="stream it") as events:
        streamed = events.get_final_response()
    expect(streamed.status == "completed", f"emulator response stream: {streamed}")
    vectors = client.embeddings.create(model="text-embedding-3-small", input=["one", "two"])
    expect(len(vectors.data) == 2 and len(vectors.data[0].embedding) == 1536, "emulator embeddings")

    claude = anthropic.Anthropic(base_url=session.url("mock", ""), api_key="sk-anything", max_retries=0)
    message = claude.messages.create(model="claude-haiku-4-5", max_tokens=64,
                                     messages=[{"role": "user", "content": "hello claude"}])
    expect(message.content[0].text.startswith("Received 2 words"), f"emulator messages: {message}")
    with claude.messages.stream(model="claude-haiku-4-5", max_tokens=64,
                                messages=[{"role": "user", "content": "stream"}]) as stream:
        final = stream.get_final_message()
    expect(final.stop_reason == "end_turn", f"emulator message stream: {final}")
    counted = claude.messages.count_tokens(model="claude-haiku-4-5", messages=[{"role": "user", "content": "hi"}])
    expect(counted.input_tokens >= 1, f"emulator count_tokens: {counted}")

    status, stats = http("GET", session.url("mock", "/mock/stats"))
    expect(status == 200 and stats["routes"]["messages"]["requests"] >= 2, f"emulator /mock/stats: {stats}")


def main(clone, grpcurl):
    clone = Path(clone).resolve()
    command = readme_run_command((clone / "README.md").read_text())
    print(f"README's run command, in {clone}:\n  {command}", flush=True)
    session = Session(clone, command)
    checks = [("gateway: OpenAI SDK on mock/ and emulator/ models", lambda: check_gateway(session)),
              ("gateway: JSON-RPC and tRPC", lambda: check_rpc(session)),
              ("calculator: grpcurl", lambda: check_calculator(session, grpcurl)),
              ("messaging: instance, chat, message", lambda: check_messaging(session)),
              ("emulator: OpenAI and Anthropic SDKs (chat, Responses, embeddings, messages, count_tokens)",
               lambda: check_emulator(session))]
    try:
        session.start()
        for name, check in checks:
            check()
            print(f"  ok  {name}", flush=True)
        status = session.interrupt()
        expect(status == 0, f"the command exited with status {status} after SIGINT")
        print("  ok  stopped by SIGINT", flush=True)
        time.sleep(1)
        left = session.leftovers()
        expect(not left, "left running after SIGINT:\n    " + "\n    ".join(left))
        print("  ok  nothing left running", flush=True)
        errors = [f"{log.name}: {line}" for log in sorted((clone / "logs").glob("*.log"))
                  for line in log.read_text(errors="replace").splitlines() if re.search(r"\bERROR\b", line)]
        expect(not errors, "ERROR lines in the service logs:\n    " + "\n    ".join(errors[:20]))
        print("  ok  no ERROR in the service logs", flush=True)
    except Exception as failure:
        print(f"FAILED: {type(failure).__name__}: {failure}", flush=True)
        if hasattr(session, "process"):
            session.kill()
        session.show_logs()
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
