"""Tests of bench/compare's pure parts: `python3 -m unittest bench/test_compare.py`."""

import argparse
import importlib.machinery
import importlib.util
import tempfile
import unittest
from pathlib import Path

_path = Path(__file__).resolve().parent / "compare"
_loader = importlib.machinery.SourceFileLoader("bench_compare", str(_path))
_spec = importlib.util.spec_from_loader("bench_compare", _loader)
compare = importlib.util.module_from_spec(_spec)
_loader.exec_module(compare)


def report(p50, p99, success=1.0, requests=1000):
    return {"requests": requests, "success": success, "p50_ms": p50, "p99_ms": p99}


class TargetTests(unittest.TestCase):

    def test_reads_url_model_key_and_pid(self):
        target = compare.parse_target("other=http://127.0.0.1:4000/v1/chat/completions,model=emu/gpt-4o,key=sk-1,pid=42")
        self.assertEqual((target.name, target.url, target.model, target.key, target.pid),
                         ("other", "http://127.0.0.1:4000/v1/chat/completions", "emu/gpt-4o", "sk-1", 42))

    def test_defaults_to_the_emulator_model_and_no_key(self):
        target = compare.parse_target("other=http://localhost:4000/v1/chat/completions")
        self.assertEqual((target.model, target.key, target.pid), ("gpt-4o-mini", "", 0))

    def test_refuses_targets_off_loopback_and_unknown_options(self):
        for text in ("other=http://10.0.0.1:4000/v1/chat/completions", "other=http://example.com/v1",
                     "other=http://127.0.0.1:4000/v1,colour=red", "no-url", "=http://127.0.0.1:1/"):
            with self.subTest(text=text), self.assertRaises(argparse.ArgumentTypeError):
                compare.parse_target(text)


class TableTests(unittest.TestCase):

    def test_added_latency_is_the_median_of_differences_within_each_repetition(self):
        direct = compare.Target("direct", "http://127.0.0.1:1/")
        direct.results[1000] = [report(0.2, 1.0), report(0.3, 2.0), report(0.2, 1.5)]
        other = compare.Target("other", "http://127.0.0.1:2/", pid=0)
        other.results[1000] = [report(0.5, 2.0), report(0.7, 3.0), report(0.6, 9.5, success=0.5)]
        other.results[("rss", 1000)] = 120.4
        text = compare.table([other], direct, [1000], "10s")
        self.assertIn("| 1,000 | other | 100 | 100.00% | +0.400 | +1.000 | 120 MB |", text)
        self.assertIn("| 1,000 | direct (emulator) | 100 | 100.00% | p50 0.200 | p99 1.500 | |", text)

    def test_durations_in_go_syntax(self):
        self.assertEqual(compare.seconds_of("10s"), 10)
        self.assertEqual(compare.seconds_of("500ms"), 0.5)
        self.assertEqual(compare.seconds_of("2m"), 120)


class PortTests(unittest.TestCase):

    HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

    def row(self, state):
        return f"   0: 0100007F:4650 0100007F:B3C2 {state} 00000000:00000000 00:00000000 00000000     0        0 0\n"

    def test_counts_time_wait_sockets_of_both_address_families(self):
        with tempfile.TemporaryDirectory() as net:
            Path(net, "tcp").write_text(self.HEADER + self.row("06") + self.row("01") + self.row("06"))
            Path(net, "tcp6").write_text(self.HEADER + self.row("06") + self.row("0A"))
            self.assertEqual(compare.closing_connections(Path(net)), 3)

    def test_reads_the_ephemeral_port_range(self):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory, "ip_local_port_range")
            path.write_text("32768\t60999\n")
            self.assertEqual(compare.ephemeral_ports(path), 28232)
            self.assertIsNone(compare.ephemeral_ports(Path(directory, "absent")))

    def test_waits_while_closed_connections_hold_a_quarter_of_the_ports(self):
        counts, slept = iter([9000, 7001, 7000]), []
        waited = compare.wait_for_ports(count=lambda: next(counts), ports=lambda: 28000, sleep=slept.append)
        self.assertEqual((waited, slept), (10, [5, 5]))

    def test_waits_at_most_seventy_seconds_and_not_at_all_with_ports_free(self):
        slept = []
        self.assertEqual(compare.wait_for_ports(count=lambda: 28000, ports=lambda: 28000, sleep=slept.append), 70)
        self.assertEqual(len(slept), 14)
        self.assertEqual(compare.wait_for_ports(count=lambda: 100, ports=lambda: 28000, sleep=slept.append), 0)
        self.assertEqual(compare.wait_for_ports(count=lambda: 10**6, ports=lambda: None, sleep=slept.append), 0)


if __name__ == "__main__":
    unittest.main()
