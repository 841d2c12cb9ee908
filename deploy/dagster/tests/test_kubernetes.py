"""deploy/kubernetes/commissary-nightly.yaml: valid for Kubernetes, one index per listed campus,
and the exit statuses treated as the Dagster code location treats them."""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import kubernetes_validate
import yaml

from commissary_dagster.outcome import Verdict, verdict

MANIFEST = Path(__file__).resolve().parents[2] / "kubernetes" / "commissary-nightly.yaml"
# Every status `commissary run --help` names.
RUN_STATUSES = [0, 1, 2, 3, 4, 5, 6, 64, 129, 130, 143]


class KubernetesManifestTests(unittest.TestCase):
    def setUp(self):
        documents = list(yaml.safe_load_all(MANIFEST.read_text(encoding="utf-8")))
        self.documents = documents
        self.campuses = next(document for document in documents if document["kind"] == "ConfigMap")["data"]["campuses"]
        cron = next(document for document in documents if document["kind"] == "CronJob")
        self.job = cron["spec"]["jobTemplate"]["spec"]
        self.pod = self.job["template"]["spec"]

    def test_kubernetes_accepts_it_from_the_first_version_with_backoff_per_index(self):
        for version in ["1.29.0", kubernetes_validate.latest_version()]:
            for document in self.documents:
                kubernetes_validate.validate(document, version, strict=True)

    def test_each_listed_campus_is_an_index_run_side_by_side(self):
        lines = self.campuses.splitlines()
        self.assertEqual(self.job["completionMode"], "Indexed")
        self.assertEqual((self.job["completions"], self.job["parallelism"]), (len(lines), len(lines)))
        self.assertEqual(self.pod["restartPolicy"], "Never")

    def test_the_statuses_no_retry_mends_fail_their_index_and_the_others_are_retried(self):
        rule = next(rule for rule in self.job["podFailurePolicy"]["rules"] if rule["action"] == "FailIndex")
        self.assertEqual(rule["onExitCodes"]["containerName"], self.pod["containers"][0]["name"])
        expected = [status for status in RUN_STATUSES if verdict(status) not in (Verdict.MATERIALIZED, Verdict.RETRY)]
        self.assertEqual(sorted(rule["onExitCodes"]["values"]), expected)

    def test_an_index_runs_its_line_of_the_list_and_an_index_past_it_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "campuses").write_text("Pipelines/ucla.yml\nPipelines/stolaf.yml\n")
            stub = root / "commissary"
            stub.write_text('#!/bin/sh\necho "$PWD $*"\n')
            stub.chmod(0o755)
            script = (self.pod["containers"][0]["command"][2]
                      .replace("/etc/commissary/campuses", str(root / "campuses"))
                      .replace("/srv/commissary", folder)
                      .replace("/usr/local/bin/commissary", str(stub)))

            def run(index: int) -> subprocess.CompletedProcess:
                return subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True,
                                      env={**os.environ, "JOB_COMPLETION_INDEX": str(index)})

            second = run(1)
            self.assertEqual((second.returncode, second.stdout),
                             (0, f"{folder} run Pipelines/stolaf.yml --log-format json\n"))
            past = run(2)
            self.assertEqual(past.returncode, 64)
            self.assertIn("has no line 3 for index 2", past.stderr)
