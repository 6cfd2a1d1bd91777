"""Tests of bench/run's pure parts: the loopback check, report parsing, figures and tables.

Run with `python3 -m unittest bench/test_run.py` from the repository root; nothing is started.
"""

import contextlib
import importlib.machinery
import io
import importlib.util
import tempfile
import unittest
from pathlib import Path

_PATH = Path(__file__).resolve().parent / "run"
_LOADER = importlib.machinery.SourceFileLoader("bench_run", str(_PATH))
_SPEC = importlib.util.spec_from_loader("bench_run", _LOADER)
run = importlib.util.module_from_spec(_SPEC)
_LOADER.exec_module(run)


def quietly(function, *args):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return function(*args)


def stats_row(name, row_id, values):
    """One row of Gatling 3.15's statistics table, as its index.html writes it."""
    cells = "\n".join(f'  <td class="value {"ko" if col in (4, 5) else "total"} col-{col}">{value}</td>'
                      for col, value in zip(range(2, 15), values))
    return f"""<tr id="{row_id}" data-parent="ROOT">
  <td class="total col-1">
    <div class="expandable-container">
      <span id="{row_id}" style="margin-left: 0px;" class="expand-button hidden">&nbsp;</span>
        <a href="{row_id}.html" class="withTooltip">
          <span class="table-cell-tooltip" id="parent-stats-table-{row_id}" data-toggle="popover">
            <span onmouseover="isEllipsed('stats-table-{row_id}')" id="stats-table-{row_id}" class="ellipsed-name">{name}</span>
          </span>
        </a>
      <span class="value" style="display:none;">0</span>
    </div>
  </td>
{cells}
</tr>"""


def assertion_row(status, text):
    return f"""<tr>
  <td class="error-col-1 {status} total">
    {text}
    <span class="value" style="display:none">0</span>
  </td>
  <td class="error-col-2 value {status} total">{status.upper()}</td>
</tr>"""


#                total ok  ko %ko rate min p50 p75 p95 p99 max mean std
VIA_GATEWAY = [1000, 1000, 0, 0, 500, 60, 61, 62, 64, 70, 95, 61.4, 2]
DIRECT = [1000, 1000, 0, 0, 500, 60, 60, 60, 61, 62, 80, 60.2, 1]

REPORT = "\n".join([
    '<table id="container_assertions"><tbody>',
    assertion_row("ok", "chat completion via gateway: count of failed events is 0.0"),
    assertion_row("ko", "chat completion via gateway: 99th percentile of response time is less than or equal to 61.0"),
    "</tbody></table>",
    '<table id="container_statistics_head"><tbody>',
    stats_row("All Requests", "ROOT", [2000, 2000, 0, 0, 1000, 60, 61, 61, 63, 68, 95, 60.8, 2]),
    "</tbody></table>",
    '<table id="container_statistics_body"><tbody>',
    stats_row("chat completion via gateway", "req_via-1", VIA_GATEWAY),
    stats_row("chat completion direct", "req_direct-2", DIRECT),
    stats_row("GET /health &amp; more c100", "req_health-3", [1000, 990, 10, 1, "-", 1, 20, 25, 30, 35, 40, 25, 3]),
    "</tbody></table>",
])


class LoopbackTests(unittest.TestCase):

    def test_accepts_loopback_urls_and_targets(self):
        for value in ("http://127.0.0.1:8080", "http://localhost:8090/v1", "http://[::1]:8080/x", "127.0.0.1:50051",
                      "localhost:50051", "static://127.0.0.1:50051", "postgresql://u:p@127.0.0.1:5432/db",
                      "http://127.0.0.2:1"):
            with self.subTest(value=value):
                run.require_loopback("target", value)

    def test_refuses_anything_else(self):
        for value in ("http://10.0.0.5:8080", "http://example.com", "api.openai.com:443", "http://0.0.0.0:8080",
                      "postgresql://u:p@db.internal:5432/x", "http://localhost.example.com:80", "http://[::2]:80",
                      "http://user@evil.com@127.0.0.1.evil.com/", ""):
            with self.subTest(value=value):
                with self.assertRaises(run.UsageError):
                    run.require_loopback("target", value)

    def test_non_loopback_property_exits_with_status_2(self):
        self.assertEqual(quietly(run.main, ["-D", "gateway.url=http://192.168.1.10:8080", "--list"]), 2)
        self.assertEqual(quietly(run.main, ["--postgres", "postgresql://db.example.com/messaging", "--list"]), 2)
        self.assertEqual(quietly(run.main, ["-D", "calculator.mtls.target=10.1.1.1:50051", "--list"]), 2)

    def test_loopback_property_is_accepted(self):
        self.assertEqual(quietly(run.main, ["-D", "gateway.url=http://127.0.0.1:9999", "--list"]), 0)


class ReportParsingTests(unittest.TestCase):

    def test_reads_every_request_row_with_its_statistics(self):
        result = run.parse_report(REPORT)
        self.assertEqual(set(result["requests"]),
                         {"All Requests", "chat completion via gateway", "chat completion direct",
                          "GET /health & more c100"})
        via = result["requests"]["chat completion via gateway"]
        self.assertEqual((via["total"], via["ok"], via["ko"]), (1000, 1000, 0))
        self.assertEqual((via["p50"], via["p95"], via["p99"], via["max"]), (61, 64, 70, 95))
        self.assertEqual(via["mean"], 61.4)
        self.assertIsNone(result["requests"]["GET /health & more c100"]["rate"])

    def test_reads_assertion_outcomes(self):
        assertions = run.parse_report(REPORT)["assertions"]
        self.assertEqual([a["ok"] for a in assertions], [True, False])
        self.assertTrue(assertions[1]["text"].startswith("chat completion via gateway: 99th percentile"))

    def test_report_directory_names_give_simulation_and_start(self):
        sim, start = run.report_simulation("healthsimulation-20261121092021485")
        self.assertEqual(sim, "healthsimulation")
        self.assertEqual((start.hour, start.minute, start.second, start.microsecond), (9, 20, 21, 485000))
        self.assertEqual(run.report_simulation("lastRun.txt"), (None, None))


CONSOLE = """[INFO] Running simulation a.BSimulation.
Simulation a.BSimulation started...
Add auth=none: 99th percentile of response time is less than or equal to 12.0 : true (actual : 3.0)
Global: percentage of failed events is less than or equal to 3.0E-4 : false (actual : 0.5)
Simulation a.CSimulation started...
Global: count of failed events is 0.0 : true (actual : 0.0)
[INFO] BUILD SUCCESS
"""


class FiguresTests(unittest.TestCase):

    def test_console_assertions_are_split_by_simulation(self):
        found = run.console_assertions(CONSOLE)
        self.assertEqual(found["a.BSimulation"][0],
                         ("Add auth=none: 99th percentile of response time is less than or equal to 12.0", True, 3))
        self.assertEqual(found["a.BSimulation"][1][1:], (False, 0.5))
        self.assertEqual(len(found["a.CSimulation"]), 1)

    def test_assertion_rows_compare_threshold_with_actual(self):
        rows = run.assertion_rows(run.console_assertions(CONSOLE)["a.BSimulation"])
        self.assertEqual(rows[0], ("Add auth=none: 99th percentile of response time", 12, 3, "assertion threshold"))
        self.assertEqual(rows[1][:3], ("Global: percentage of failed events", 0.0003, 0.5))

    def test_overhead_is_gateway_minus_direct_per_percentile(self):
        result = run.parse_report(REPORT)
        rows = {label: ours for label, _, ours, _ in
                run.figure_rows("dev.junction.gatling.gateway.GatewayOverheadSimulation", result)}
        self.assertEqual(rows["added by the gateway, p50 ms"], 1)
        self.assertEqual(rows["added by the gateway, p99 ms"], 8)
        self.assertAlmostEqual(rows["added by the gateway, mean ms"], 1.2)
        self.assertEqual(rows["success % via gateway"], 100.0)

    def test_closed_model_throughput_is_concurrency_over_mean(self):
        result = {"requests": {"GET /health c100": {"total": 1000, "ok": 1000, "ko": 0, "mean": 25}}, "assertions": []}
        rows = {label: ours for label, _, ours, _ in
                run.figure_rows("dev.junction.gatling.rpc.HealthSimulation", result)}
        self.assertEqual(rows["requests/s (concurrency / mean)"], 4000.0)
        self.assertEqual(rows["mean ms"], 25)

    def test_achieved_rate_counts_requests_over_the_measured_window(self):
        result = {"requests": {"chat completion": {"total": 3000, "ok": 2970, "ko": 30, "mean": 70, "p95": 90,
                                                   "max": 300}}, "assertions": []}
        unsent = {"arrivals": 3100, "sent": 3000, "unsent": 100, "elapsedMs": 3000}
        rows = {label: ours for label, _, ours, _ in
                run.figure_rows("dev.junction.gatling.gateway.ChatCompletionsConstantRateSimulation", result, unsent)}
        self.assertEqual(rows["achieved requests/s"], 1000.0)
        self.assertEqual(rows["success %"], 99.0)
        self.assertEqual(rows["unsent (dropped) arrivals"], 100)

    def test_stress_test_is_compared_with_the_stress_figures(self):
        result = {"requests": {"chat completion": {"total": 15000, "ok": 15000, "ko": 0, "mean": 3, "p95": 9,
                                                   "max": 80}}, "assertions": []}
        unsent = {"arrivals": 15000, "sent": 15000, "unsent": 0, "elapsedMs": 3000}
        rows = {label: (reference, ours) for label, reference, ours, _ in
                run.figure_rows("dev.junction.gatling.gateway.ChatCompletionsStressSimulation", result, unsent)}
        self.assertEqual(rows["achieved requests/s"], (512.0, 5000.0))
        self.assertEqual(rows["p95 ms"], (1080.0, 9))
        self.assertEqual(rows["unsent (dropped) arrivals"], (9433.0, 0))

    def test_ratio_is_ours_over_reference(self):
        self.assertEqual(run.ratio(50, 100), 0.5)
        self.assertIsNone(run.ratio(None, 100))
        self.assertIsNone(run.ratio(5, None))
        self.assertEqual(run.fmt_ratio(run.ratio(1227, 1227)), "1.00x")


class RenderingTests(unittest.TestCase):

    def test_simulation_section_has_reference_table_overhead_table_and_failed_assertions(self):
        result = run.parse_report(REPORT)
        sim = "dev.junction.gatling.gateway.GatewayOverheadSimulation"
        text = run.render_simulation(sim, result, "../../gatling/target/gatling/x/index.html",
                                     run.figure_rows(sim, result))
        self.assertIn("[../../gatling/target/gatling/x/index.html](../../gatling/target/gatling/x/index.html)", text)
        self.assertIn("assertions **FAILED**", text)
        self.assertIn("| added by the gateway, mean ms | 0.059 | 1.20 | 20.34x |", text)
        self.assertIn("| p99 | 70 | 62 | 8 |", text)
        self.assertIn("- **FAILED**: chat completion via gateway: 99th percentile", text)

    def test_missing_report_says_the_simulation_did_not_run(self):
        text = run.render_simulation("a.b.CalculatorSimulation", None, None, [])
        self.assertIn("did not run", text)

    def test_markdown_table_has_one_separator_per_column(self):
        self.assertEqual(run.markdown_table(["a", "b"], [(1, 2)]), "| a | b |\n|---|---|\n| 1 | 2 |")


class SelectionTests(unittest.TestCase):

    def test_selects_by_document_or_simulation_name(self):
        [(suite, sims)] = run.select("003")
        self.assertEqual(sims, ["dev.junction.gatling.gateway.GatewayOverheadSimulation"])
        [(suite, sims)] = run.select("HealthSimulation")
        self.assertEqual((suite.doc, sims), ("000", ["dev.junction.gatling.rpc.HealthSimulation"]))
        self.assertEqual(len(run.select(None)), len(run.SUITES))
        selection = run.select("GatewayOverheadSimulation, HealthSimulation,001")
        self.assertEqual([(suite.doc, [run.simple_name(s) for s in sims]) for suite, sims in selection],
                         [("000", ["HealthSimulation"]), ("001", ["ChatCompletionsConstantRateSimulation",
                                                                    "ChatCompletionsStressSimulation"]),
                          ("003", ["GatewayOverheadSimulation"])])
        with self.assertRaises(run.UsageError):
            run.select("NoSuchSimulation")

    def test_several_messaging_instances_are_one_url_list_on_their_own_ports(self):
        options = run.Options(smoke=False, ports=run.Ports(28000), jars_from=Path("."), messaging_instances=3)
        props = run.simulation_properties(options, ["messaging"], None, 0)
        self.assertEqual(props["messaging.url"],
                         "http://127.0.0.1:28004,http://127.0.0.1:28010,http://127.0.0.1:28011")
        jars = {"messaging": Path("m.jar")}
        services = run.messaging_services(options, jars, "postgresql://127.0.0.1:28009/postgres", Path("/tmp"))
        self.assertEqual([s.name for s in services], ["messaging", "messaging-2", "messaging-3"])
        self.assertIn("--server.port=28011", services[2].command)
        self.assertTrue(all("--spring.r2dbc.url=postgresql://127.0.0.1:28009/postgres" in s.command
                            for s in services))

    def test_several_messaging_instances_need_postgresql(self):
        with self.assertRaises(run.UsageError):
            run.build_options(run.parse_args(["--messaging-instances", "2", "--h2"]))
        with self.assertRaises(run.UsageError):
            run.build_options(run.parse_args(["--messaging-instances", "9"]))
        self.assertEqual(run.build_options(run.parse_args(["--messaging-instances", "2"])).messaging_instances, 2)

    def test_documents_needing_the_same_services_run_together(self):
        options = run.Options(smoke=False, ports=run.Ports(28000), jars_from=Path("."))
        docs = [[suite.doc for suite, _ in group] for group in run.groups(run.select(None), options)]
        self.assertEqual(docs, [["000"], ["001", "003"], ["002"], ["004"]])
        docs = [[suite.doc for suite, _ in group] for group in run.groups(run.select("001,003"), options)]
        self.assertEqual(docs, [["001", "003"]])
        options.provider_latency_ms = 10
        docs = [[suite.doc for suite, _ in group] for group in run.groups(run.select("000,001"), options)]
        self.assertEqual(docs, [["000"], ["001"]])

    def test_finds_simulation_classes_in_sources(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "a" / "B.scala"
            source.parent.mkdir()
            source.write_text("package x.y\n\nclass BSimulation extends Simulation {\n}\nclass Helper\n")
            self.assertEqual(run.available_simulations(Path(tmp)), {"x.y.BSimulation"})

    def test_finds_simulations_that_extend_an_abstract_simulation(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "a" / "C.scala"
            source.parent.mkdir()
            source.write_text("package x.y\n\nabstract class Base(rate: Double)\n    extends Simulation {\n}\n"
                              "class CSimulation\n    extends Base(5000)\nclass Other extends Helper\n")
            self.assertEqual(run.available_simulations(Path(tmp)), {"x.y.CSimulation"})

    def test_cpu_and_rss_summary(self):
        summary = run.summarise_samples([(0.0, 102400, 0), (1.0, 112640, 50), (2.0, 122880, 100)], 100)
        self.assertEqual((summary["rss_first_mb"], summary["rss_peak_mb"]), (100.0, 120.0))
        self.assertEqual(summary["cpu_seconds"], 1.0)
        self.assertEqual(summary["cpu_percent"], 50.0)


if __name__ == "__main__":
    unittest.main()
