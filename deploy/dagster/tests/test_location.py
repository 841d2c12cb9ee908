"""The code location built from pipeline files: which assets are nightly, what the schedule runs,
which runs take turns."""

import tempfile
import unittest
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from dagster import AssetKey, build_schedule_context

from commissary_dagster.assets import host_tag
from commissary_dagster.location import build, host_queues
from commissary_dagster.pipelines import PipelineFileError, pipeline_files
from commissary_dagster.settings import Settings, SettingsError

NIGHTLY = """\
pipeline: nightly-ucla
sources:
  - {name: ucla, adapter: ucla-jamix, location: "https://dining.ucla.edu/jamix", dates: {days_ahead: 5}}
"""
FIXED = """\
pipeline: stolaf
sources:
  - {name: stolaf, adapter: bonappetit, location: "http://127.0.0.1:8080", cafes: [261], dates: {from: 2016-11-22}}
"""


class LocationTests(unittest.TestCase):
    def setUp(self):
        temporary = tempfile.TemporaryDirectory()
        self.addCleanup(temporary.cleanup)
        self.folder = Path(temporary.name)
        (self.folder / "nightly-ucla.yml").write_text(NIGHTLY)
        (self.folder / "stolaf.yml").write_text(FIXED)

    def settings(self, **changed) -> Settings:
        given = {"COMMISSARY_PIPELINES": str(self.folder), "COMMISSARY_FIRST_NIGHT": "2025-04-01",
                 "COMMISSARY_TIMEZONE": "America/Los_Angeles", **changed}
        return Settings.from_environment(given)

    def test_a_pipeline_of_days_ahead_is_partitioned_by_night_the_others_not(self):
        graph = build(self.settings()).resolve_asset_graph()
        nightly = graph.get(AssetKey(["commissary", "nightly-ucla"])).partitions_def
        self.assertIsNotNone(nightly)
        tonight = datetime(2025, 4, 10, 3, tzinfo=ZoneInfo("America/Los_Angeles"))
        self.assertEqual(nightly.get_partition_keys(tonight)[-1], "2025-04-10")
        self.assertIsNone(graph.get(AssetKey(["commissary", "stolaf"])).partitions_def)

    def test_the_schedule_runs_each_night_as_of_that_night_at_cron_time(self):
        definitions = build(self.settings())
        schedule = definitions.resolve_schedule_def("nightly_schedule")
        self.assertEqual((schedule.cron_schedule, schedule.execution_timezone), ("15 2 * * *", "America/Los_Angeles"))
        tick = datetime(2025, 4, 10, 2, 15, tzinfo=ZoneInfo("America/Los_Angeles"))
        repository = definitions.get_repository_def()
        with build_schedule_context(scheduled_execution_time=tick, repository_def=repository) as context:
            requests = schedule.evaluate_tick(context).run_requests
        self.assertEqual([request.partition_key for request in requests], ["2025-04-10"])

    def test_without_a_nightly_pipeline_the_job_is_unpartitioned_and_runs_at_cron_time(self):
        (self.folder / "nightly-ucla.yml").unlink()
        definitions = build(self.settings(COMMISSARY_FIRST_NIGHT=""))
        self.assertIsNone(definitions.resolve_job_def("nightly").partitions_def)
        schedule = definitions.resolve_schedule_def("nightly_schedule")
        self.assertEqual((schedule.cron_schedule, schedule.execution_timezone), ("15 2 * * *", "America/Los_Angeles"))

    def test_runs_asking_one_host_take_turns(self):
        pipelines = pipeline_files([self.folder])
        self.assertEqual(host_queues(pipelines), [{"key": "commissary/host-127.0.0.1_8080", "limit": 1},
                                                  {"key": "commissary/host-dining.ucla.edu", "limit": 1}])
        stolaf = build(self.settings()).resolve_assets_def(AssetKey(["commissary", "stolaf"]))
        self.assertEqual(stolaf.op.tags.get(host_tag("127.0.0.1:8080")), "asks")

    def test_a_nightly_pipeline_needs_the_first_night(self):
        with self.assertRaisesRegex(SettingsError, "COMMISSARY_FIRST_NIGHT"):
            build(self.settings(COMMISSARY_FIRST_NIGHT=""))

    def test_two_files_of_one_pipeline_name_are_refused(self):
        (self.folder / "again.yml").write_text(FIXED)
        with self.assertRaisesRegex(PipelineFileError, "pipeline stolaf is named by two files"):
            pipeline_files([self.folder])

    def test_a_setting_that_is_no_number_is_named(self):
        with self.assertRaisesRegex(SettingsError, "COMMISSARY_CONCURRENT_RUNS is 'many': expected a number"):
            self.settings(COMMISSARY_CONCURRENT_RUNS="many")

    def test_no_pipelines_named_is_said(self):
        with self.assertRaisesRegex(SettingsError, "COMMISSARY_PIPELINES is not set"):
            Settings.from_environment({})
