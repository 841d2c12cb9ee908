"""What the asset does with each exit status, on a stand-in for the binary that leaves a manifest
and exits as told: which of materialization, checks, retry and failure Dagster records."""

import json
import sys
import tempfile
import unittest
from pathlib import Path

from dagster import DagsterInstance

from commissary_dagster.location import build
from commissary_dagster.settings import Settings

STAND_IN = """\
#!{python}
import json, pathlib, sys
workspace = pathlib.Path(sys.argv[sys.argv.index("--workspace") + 1])
runs = workspace / "state" / "runs" / "campus"
runs.mkdir(parents=True, exist_ok=True)
(runs / "r1.manifest.json").write_text({manifest!r})
print(json.dumps({{"event": "run_finished", "run_id": "r1", "pipeline": "campus"}}))
print("error: what the run said")
sys.exit({status})
"""


def manifest(checks=(), stale=()) -> dict:
    partitions = [{"source": "s", "key": key, "status": "stale"} for key in stale]
    return {"run_id": "r1", "status": "published", "today": "2025-04-10", "checks": list(checks),
            "partitions": partitions, "row_counts": {"menu_item": 3}, "stages": [], "inputs_sha256": "abc"}


class AssetOutcomeTests(unittest.TestCase):
    def run_job(self, status: int, run: dict) -> dict:
        """One in-process run of the job over a pipeline whose binary exits with `status`."""
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            (folder / "campus.yml").write_text("pipeline: campus\nsources: []\n")
            stand_in = folder / "commissary"
            stand_in.write_text(STAND_IN.format(python=sys.executable, manifest=json.dumps(run), status=status))
            stand_in.chmod(0o755)
            definitions = build(Settings.from_environment({
                "COMMISSARY_PIPELINES": str(folder / "campus.yml"), "COMMISSARY_BINARY": str(stand_in),
                "COMMISSARY_WORKSPACE": str(folder / "workspace"), "COMMISSARY_RETRIES": "1",
                "COMMISSARY_RETRY_SECONDS": "0"}))
            with DagsterInstance.ephemeral() as instance:
                result = definitions.resolve_job_def("nightly").execute_in_process(
                    instance=instance, raise_on_error=False,
                    run_config={"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}})
        events = result.all_events
        return {
            "attempts": sum(event.event_type_value in ("STEP_START", "STEP_RESTARTED") for event in events),
            "materialized": [event.event_specific_data.materialization.metadata["status"].value
                             for event in events if event.event_type_value == "ASSET_MATERIALIZATION"],
            "failed_checks": sorted((event.event_specific_data.check_name, event.event_specific_data.severity.value)
                                    for event in events if event.event_type_value == "ASSET_CHECK_EVALUATION"
                                    and not event.event_specific_data.passed),
            "failures": [event.event_specific_data.error.message for event in events
                         if event.event_type_value == "STEP_FAILURE"],
        }

    def test_exit_0_materializes_with_passing_checks(self):
        seen = self.run_job(0, manifest())
        self.assertEqual((seen["attempts"], seen["materialized"], seen["failed_checks"], seen["failures"]),
                         (1, ["published"], [], []))

    def test_exit_3_materializes_nothing_fails_the_blocking_check_and_is_not_retried(self):
        seen = self.run_job(3, manifest([{"name": "min_menu_items", "severity": "error", "passed": False}]))
        self.assertEqual((seen["attempts"], seen["materialized"]), (1, []))
        self.assertEqual(seen["failed_checks"], [("blocking_checks", "ERROR")])
        self.assertEqual(len(seen["failures"]), 1)

    def test_exit_6_materializes_and_fails_the_fresh_check(self):
        seen = self.run_job(6, manifest(stale=["2025-04-11"]))
        self.assertEqual((seen["attempts"], seen["materialized"], seen["failures"]), (1, ["published"], []))
        self.assertEqual(seen["failed_checks"], [("fresh_partitions", "WARN")])

    def test_exit_4_is_retried_then_fails_naming_what_the_run_said(self):
        seen = self.run_job(4, manifest())
        self.assertEqual((seen["attempts"], seen["materialized"]), (2, []))
        self.assertEqual(len(seen["failures"]), 1)

    def test_exit_1_fails_at_once_despite_the_retry_policy(self):
        seen = self.run_job(1, manifest())
        self.assertEqual((seen["attempts"], seen["materialized"]), (1, []))
        self.assertIn("commissary run ended with status 1: error: what the run said", seen["failures"][0])

    def test_exit_5_materializes_then_fails_for_a_person_to_look(self):
        seen = self.run_job(5, manifest())
        self.assertEqual((seen["attempts"], seen["materialized"]), (1, ["published"]))
        self.assertIn("status 5", seen["failures"][0])
