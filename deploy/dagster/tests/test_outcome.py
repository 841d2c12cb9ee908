"""The exit statuses and manifests as the code location reads them."""

import unittest

from dagster import AssetCheckSeverity

from commissary_dagster.assets import BLOCKING, STALE, WARNINGS, check_results
from commissary_dagster.outcome import Verdict, figures, verdict


def manifest(checks=(), partitions=(), **fields) -> dict:
    return {"run_id": "1", "status": "published", "today": "2025-04-10", "checks": list(checks),
            "partitions": list(partitions), "row_counts": {"menu_item": 7}, "stages": [], **fields}


def check(name: str, severity: str, passed: bool) -> dict:
    return {"name": name, "severity": severity, "passed": passed, "value": 0, "message": f"{name} said so"}


class VerdictTests(unittest.TestCase):
    def test_each_status_of_run_help(self):
        expected = {0: Verdict.MATERIALIZED, 1: Verdict.FAILED, 2: Verdict.RETRY, 3: Verdict.BLOCKED,
                    4: Verdict.RETRY, 5: Verdict.UNRECORDED, 6: Verdict.STALE, 64: Verdict.FAILED,
                    129: Verdict.RETRY, 130: Verdict.RETRY, 143: Verdict.RETRY}
        self.assertEqual({status: verdict(status) for status in expected}, expected)

    def test_a_run_ended_by_a_signal_is_retried(self):
        self.assertIs(verdict(-9), Verdict.RETRY)

    def test_a_status_run_never_gives_is_a_failure(self):
        self.assertIs(verdict(7), Verdict.FAILED)


class CheckResultTests(unittest.TestCase):
    def results(self, found: Verdict, run: dict) -> dict:
        return {result.check_name: result for result in check_results(run, found)}

    def test_exit_3_fails_the_blocking_check_with_error_severity(self):
        results = self.results(Verdict.BLOCKED, manifest([check("min_menu_items", "error", False)]))
        self.assertFalse(results[BLOCKING].passed)
        self.assertEqual(results[BLOCKING].severity, AssetCheckSeverity.ERROR)
        self.assertEqual(results[BLOCKING].metadata["failed"].value, 1)
        self.assertIn("min_menu_items said so", results[BLOCKING].metadata["checks"].value)
        self.assertTrue(results[STALE].passed)

    def test_exit_6_fails_the_fresh_check_naming_each_stale_partition(self):
        run = manifest(partitions=[{"source": "ucla", "key": "2025-04-11", "status": "stale"},
                                   {"source": "ucla", "key": "2025-04-10", "status": "fetched"}])
        results = self.results(Verdict.STALE, run)
        self.assertFalse(results[STALE].passed)
        self.assertEqual(results[STALE].severity, AssetCheckSeverity.WARN)
        self.assertEqual(results[STALE].metadata["partitions"].value, "ucla/2025-04-11")
        self.assertTrue(results[BLOCKING].passed)

    def test_a_failed_warning_fails_the_warning_check_alone(self):
        results = self.results(Verdict.MATERIALIZED, manifest([check("unknown_code", "warning", False),
                                                                check("min_menu_items", "error", True)]))
        self.assertEqual([name for name, result in sorted(results.items()) if not result.passed], [WARNINGS])


class FigureTests(unittest.TestCase):
    def test_rows_partitions_and_stages_are_flat_figures(self):
        run = manifest(partitions=[{"status": "fetched"}, {"status": "fetched"}, {"status": "reused"}],
                       stages=[{"name": "fetch", "seconds": 0.12345, "counts": {"documents": 42}}])
        found = figures(run)
        self.assertEqual((found["rows/menu_item"], found["partitions/fetched"], found["partitions/reused"]), (7, 2, 1))
        self.assertEqual((found["seconds/fetch"], found["documents"], found["night"]), (0.123, 42, "2025-04-10"))
