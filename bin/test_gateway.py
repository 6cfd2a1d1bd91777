"""Tests of bin/gateway with the jars the build made: the heap the JVM is given (from 96 MB up
to 256 MB, or the fixed size of JUNCTION_GATEWAY_HEAP), and its start-up data
(JUNCTION_GATEWAY_AOT_DIR): the first start records it in a training run that starts the
gateway, warms it up and exits; the next start maps it without recording it again. Once with the
java on the PATH and once with Temurin 25 where it is installed (an AOT cache there, a
class-data archive before 25).

Run with `python3 -m unittest bin/test_gateway.py` from the repository root after
`./mvnw -B package`; it starts mock-provider and the gateway on free loopback ports.
"""

import os
import re
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "bin" / "gateway"
GATEWAY_JAR = ROOT / "gateway-app" / "target" / "gateway-app.jar"
EMULATOR_JAR = ROOT / "mock-provider" / "target" / "mock-provider-exec.jar"
TEMURIN_25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64")
START_TIMEOUT_S = 180


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def wait_for(process, log, probe, what, interval=0.5):
    """Calls probe until it returns something true and returns that; fails, with the end of the
    process's log, if the process exits first or START_TIMEOUT_S pass."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not (found := probe()):
        if process.poll() is not None:
            raise AssertionError(f"exited with {process.returncode} before {what}:\n{log.read_text()[-4000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not {what} within {START_TIMEOUT_S} s:\n{log.read_text()[-4000:]}")
        time.sleep(interval)
    return found


def wait_healthy(process, url, log):
    wait_for(process, log, lambda: healthy(url), f"{url} answered 200")


def launch(command, env, log):
    with log.open("w") as output:
        return subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def jdks():
    found = [("the java on the PATH", None)]
    if (TEMURIN_25 / "bin" / "java").exists():
        found.append(("Temurin 25", TEMURIN_25))
    return found


def launcher_env(java_home, **settings):
    env = dict(os.environ, JUNCTION_GATEWAY_JAR=str(GATEWAY_JAR), **settings)
    env.pop("JAVA_HOME", None)
    if java_home is not None:
        env["JAVA_HOME"] = str(java_home)
    return env


MIB = 1024 * 1024


def heap_sizes(output):
    """The initial and largest heap sizes in -XX:+PrintFlagsFinal's output, once both are there."""
    flags = {name: int(size) for name, size in re.findall(r"\b(InitialHeapSize|MaxHeapSize)\s+=\s+(\d+)", output)}
    return flags if len(flags) == 2 else None


@unittest.skipUnless(GATEWAY_JAR.exists(), "needs the jar of ./mvnw package")
class HeapTest(unittest.TestCase):
    """The heap sizes the JVM reports it was given (-XX:+PrintFlagsFinal, printed as it starts)."""

    def test_starts_at_96_mb_and_may_grow_to_256_mb(self):
        for name, java_home in jdks():
            with self.subTest(jdk=name):
                self.assertEqual(self.heap(java_home), (96 * MIB, 256 * MIB))

    def test_a_fixed_heap_when_one_is_given(self):
        for name, java_home in jdks():
            with self.subTest(jdk=name):
                self.assertEqual(self.heap(java_home, JUNCTION_GATEWAY_HEAP="128m"), (128 * MIB, 128 * MIB))

    def heap(self, java_home, **settings):
        env = launcher_env(java_home, JUNCTION_GATEWAY_JAVA_OPTS="-XX:+PrintFlagsFinal", **settings)
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory, "gateway.log")
            process = launch([str(LAUNCHER), f"--server.port={free_port()}", "--server.address=127.0.0.1"], env, log)
            try:
                flags = wait_for(process, log, lambda: heap_sizes(log.read_text()), "the JVM printed its heap sizes", 0.2)
                return flags["InitialHeapSize"], flags["MaxHeapSize"]
            finally:
                stop(process)


@unittest.skipUnless(GATEWAY_JAR.exists() and EMULATOR_JAR.exists(), "needs the jars of ./mvnw package")
class StartUpDataTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.logs = tempfile.TemporaryDirectory()
        cls.emulator_port = free_port()
        log = Path(cls.logs.name, "emulator.log")
        cls.emulator = launch(
            ["java", "-jar", str(EMULATOR_JAR), f"--server.port={cls.emulator_port}", "--server.address=127.0.0.1"],
            dict(os.environ), log)
        wait_healthy(cls.emulator, f"http://127.0.0.1:{cls.emulator_port}/actuator/health", log)

    @classmethod
    def tearDownClass(cls):
        stop(cls.emulator)
        cls.logs.cleanup()

    def test_records_start_up_data_once_with_the_warm_up_and_maps_it_at_later_starts(self):
        for name, java_home in jdks():
            with self.subTest(jdk=name), tempfile.TemporaryDirectory() as directory:
                self.check_start_up_data(Path(directory), java_home)

    def check_start_up_data(self, directory, java_home):
        env = launcher_env(java_home, JUNCTION_GATEWAY_AOT_DIR=str(directory / "aot"))
        port = free_port()
        arguments = [f"--server.port={port}", "--server.address=127.0.0.1",
                     "--junction.gateway.cache.enabled=false",
                     "--junction.gateway.providers.emu.type=openai",
                     f"--junction.gateway.providers.emu.base-url=http://127.0.0.1:{self.emulator_port}/v1",
                     "--junction.gateway.providers.emu.keys[0].value=sk-test",
                     "--junction.gateway.warm-up.model=emu/gpt-4o-mini",
                     "--junction.gateway.warm-up.requests=200",
                     "--junction.gateway.warm-up.until-compiled=false"]
        health = f"http://127.0.0.1:{port}/actuator/health"

        first_log = directory / "first.log"
        first = launch([str(LAUNCHER), *arguments], env, first_log)
        try:
            wait_healthy(first, health, first_log)
            caches = sorted(p.name for p in (directory / "aot").glob("gateway-app.*") if p.suffix in (".aot", ".jsa"))
            self.assertEqual(len(caches), 1, f"one cache in {sorted(os.listdir(directory / 'aot'))}")
            self.assertIn("recording start-up data", first_log.read_text())
            self.assertNotIn("no start-up data", first_log.read_text())
            training = (directory / "aot" / "training.log").read_text()
            for line in ("200 requests to emu/gpt-4o-mini answered",
                         "Started; exiting, as junction.gateway.warm-up.then-exit asks"):
                self.assertTrue(line in training, f"{line!r} not in the training log, which ends:\n{training[-3000:]}")
            self.assertIn("-XX:AOTCache=" if caches[0].endswith(".aot") else "-XX:SharedArchiveFile=",
                          Path(f"/proc/{first.pid}/cmdline").read_bytes().decode().replace("\0", " "))
        finally:
            stop(first)

        second_log = directory / "second.log"
        second = launch([str(LAUNCHER), *arguments], env, second_log)
        try:
            wait_healthy(second, health, second_log)
            self.assertNotIn("recording start-up data", second_log.read_text())
            self.assertRegex(Path(f"/proc/{second.pid}/cmdline").read_bytes().decode(),
                             "-XX:(AOTCache|SharedArchiveFile)=")
            self.assertNotIn(" ERROR ", second_log.read_text())
        finally:
            stop(second)


if __name__ == "__main__":
    unittest.main()
