"""Tests of bench/compare's pure parts: `python3 -m unittest bench/test_compare.py`."""

import argparse
import importlib.machinery
import importlib.util
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


if __name__ == "__main__":
    unittest.main()
