"""Unit tests of docker/check-dashboards' PromQL reading: python3 -m unittest discover -s docker"""

import unittest
from importlib.machinery import SourceFileLoader
from pathlib import Path

check = SourceFileLoader("check_dashboards", str(Path(__file__).with_name("check-dashboards"))).load_module()


class ReferencesTests(unittest.TestCase):

    def test_finds_metric_and_its_matcher_labels_but_not_functions_or_variables(self):
        metrics, grouping = check.references(
            'histogram_quantile(0.99, sum by (le, provider) (rate(x_seconds_bucket{instance=~"$instance", '
            'provider=~"$provider"}[$__rate_interval])))')
        self.assertEqual(metrics, [("x_seconds_bucket", {"instance", "provider"})])
        self.assertEqual(grouping, {"le", "provider"})

    def test_ignores_keywords_numbers_durations_and_strings(self):
        metrics, _ = check.references('a_total offset 30m / on(job) group_left(model) b{c="d e"} > 1e3 and bool 2')
        self.assertEqual([name for name, _ in metrics], ["a_total", "b"])

    def test_reads_name_matcher_selectors(self):
        metrics, _ = check.references('{__name__="up", job="x"} == 0')
        self.assertEqual(metrics, [("up", {"job"})])


class UnknownNamesTests(unittest.TestCase):

    exported = {"a_total": {"provider", "outcome"}, "b_bucket": {"le", "provider"}}

    def problems(self, expr):
        return check.unknown_names([("q", expr)], self.exported)

    def test_accepts_exported_names_and_labels(self):
        self.assertEqual(self.problems('sum by (provider) (rate(a_total{outcome="x", instance="i"}[5m]))'), [])

    def test_reports_a_name_no_service_exports(self):
        self.assertEqual(self.problems("rate(a_count[5m])"), ["q: metric a_count is not exported by any service"])

    def test_reports_a_label_the_metric_lacks(self):
        self.assertEqual(self.problems('a_total{modle="x"}'), ["q: metric a_total has no label modle"])

    def test_reports_a_grouping_label_no_metric_has(self):
        self.assertEqual(self.problems("sum by (le, model) (rate(b_bucket[5m]))"),
                         ["q: no metric in the expression has the label model it groups by"])

    def test_reports_an_expression_without_metrics(self):
        self.assertEqual(self.problems("1 + 1"), ["q: no metric name found in '1 + 1'"])


class SourcesTests(unittest.TestCase):

    def test_reads_every_alert_expression_of_the_rule_files(self):
        rules = dict(check.rule_expressions())
        self.assertEqual(rules["junction.yml rule TargetDown"], "up == 0")
        self.assertIn("junction_gateway_requests_seconds_count", rules["junction.yml rule ProviderErrorRateHigh"])
        self.assertTrue(all(expr for expr in rules.values()))

    def test_reads_panel_targets_and_label_values_variables(self):
        queries = check.dashboard_queries()
        self.assertIn(("jvm.json variable $job", "jvm_info by (job)"), queries)
        self.assertTrue(any(where.startswith("gateway.json panel") for where, _ in queries))


if __name__ == "__main__":
    unittest.main()
