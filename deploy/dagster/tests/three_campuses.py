"""Three campuses materialized by Dagster's multiprocess executor into one PostgreSQL server: the
sample, a Bon Appétit day (St. Olaf, whose first answer comes too late: exit 4, a retry) and a
saved UCLA night (whose worker is killed in the middle of its run: Dagster retries the step). The
unit tests of the code location run first. Prints one JSON object of what was seen, which
Tests/PipelineTests/DagsterTests.swift holds to figures it counts from the sources itself.

three_campuses.py --binary B --postgres URL --package-root ROOT --shared-data DATA --folder F
(PostgreSQL is queried with psql; the folder is the test's own, left for the caller to remove.)"""

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Dagster's step workers load this file again: the code location must be importable there too.
sys.path[:0] = [str(HERE.parent), str(HERE)]

from dagster import DagsterInstance, execute_job, reconstructable  # noqa: E402

from saved_sites import UCLA_NIGHT, stolaf_site, ucla_site  # noqa: E402

PG_VARIABLE = "COMMISSARY_PG_URL"
PUBLISH = "publish:\n  postgres:\n    url_env: {variable}\n    schema: {schema}\n    across: campuses\n"


def nightly_job():
    """The code location's nightly job, as Dagster's workers rebuild it."""
    from commissary_dagster import defs
    return defs().resolve_job_def("nightly")


def write_pipelines(folder: Path, package_root: Path, stolaf_url: str, ucla_url: str) -> Path:
    """The three campuses' pipeline files in one folder, each publishing into a schema of its own
    and read together through `campuses`."""
    pipelines = folder / "Pipelines"
    pipelines.mkdir()
    # The sample as the quick start runs it: its folders of standards and places beside, its data above.
    for shared in ["standards", "plans", "terms", "places", "nutrition"]:
        (pipelines / shared).symlink_to(package_root / "Pipelines" / shared)
    (folder / "SampleData").symlink_to(package_root / "SampleData")
    sample = (package_root / "Pipelines" / "sample.yml").read_text(encoding="utf-8")
    (pipelines / "sample.yml").write_text(sample + PUBLISH.format(variable=PG_VARIABLE, schema="sample"),
                                          encoding="utf-8")
    (pipelines / "stolaf.yml").write_text(f"""\
pipeline: stolaf
description: St. Olaf College's Stav Hall on one saved day of Bon Appétit's API.
licence: test
sources:
  - name: stolaf
    adapter: bonappetit
    campus: St. Olaf
    location: {stolaf_url}
    cafes: [261]
    cafes_answer: false
    dates: {{from: 2016-11-22, to: 2016-11-22}}
checks:
  min_menu_items: 1
fetch: {{delay_ms: 0, retries: 0, timeout_seconds: 2}}
""" + PUBLISH.format(variable=PG_VARIABLE, schema="stolaf"), encoding="utf-8")
    (pipelines / "ucla.yml").write_text(f"""\
pipeline: ucla
description: UCLA's live feed as saved one night, six days ahead with their food documents.
licence: test
sources:
  - name: ucla
    adapter: ucla-jamix
    campus: UCLA
    location: {ucla_url}
    dates: {{days_ahead: 5}}
    food_documents: true
checks:
  min_menu_items: 500
fetch: {{delay_ms: 0, retries: 0, timeout_seconds: 10}}
""" + PUBLISH.format(variable=PG_VARIABLE, schema="ucla"), encoding="utf-8")
    return pipelines


def processes() -> dict[int, list[str]]:
    """Every process's arguments, by id."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
            except OSError:
                continue
    return found


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def has_ended(pid: int) -> bool:
    """Gone, or a zombie: it has exited, and only waits for init to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


class WorkerKiller:
    """Kills, with SIGKILL, the Dagster step worker whose commissary child runs `pipeline`, and
    waits until that child has stopped too (it is told by a SIGTERM when its parent dies)."""

    def __init__(self, pipeline: Path):
        self.pipeline = str(pipeline)
        self.seen: dict = {}

    def __call__(self) -> None:
        runs = [pid for pid, arguments in processes().items()
                if arguments[1:3] == ["run", self.pipeline] and arguments[0].endswith("commissary")]
        if len(runs) != 1:
            self.seen = {"error": f"expected one commissary run of {self.pipeline}, found {len(runs)}"}
            return
        run = runs[0]
        worker = parent_of(run)
        command = " ".join(processes().get(worker, []))
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not has_ended(run) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.seen = {"worker": worker, "worker_command": command, "run": run, "run_ended": has_ended(run)}


def materialize(folder: Path) -> dict:
    """One execution of the nightly job for the saved UCLA night, and what its events say."""
    (folder / "dagster").mkdir()
    started = time.monotonic()
    with DagsterInstance.local_temp(str(folder / "dagster"), overrides={"telemetry": {"enabled": False}}) as instance:
        result = execute_job(reconstructable(nightly_job), instance=instance,
                             tags={"dagster/partition": UCLA_NIGHT}, raise_on_error=False)
        events = result.all_events
    seen: dict = {"success": result.success, "seconds": round(time.monotonic() - started, 1),
                  "steps": {}, "materializations": {}, "checks": {}, "engine": []}
    for event in events:
        kind = event.event_type_value
        if event.step_key:
            step = seen["steps"].setdefault(event.step_key,
                                            {"attempts": 0, "retries": [], "failures": [], "success": False})
            if kind in ("STEP_START", "STEP_RESTARTED"):
                step["attempts"] += 1
            elif kind == "STEP_UP_FOR_RETRY":
                step["retries"].append(said(event.event_specific_data.error))
            elif kind == "STEP_FAILURE":
                step["failures"].append(said(event.event_specific_data.error))
            elif kind == "STEP_SUCCESS":
                step["success"] = True
        if kind == "ASSET_MATERIALIZATION":
            materialization = event.event_specific_data.materialization
            figures = {name: value.value for name, value in materialization.metadata.items()}
            seen["materializations"][materialization.asset_key.path[-1]] = {
                "partition": materialization.partition, "status": figures["status"], "night": figures["night"],
                "menu_item_rows": figures["rows/menu_item"], "figures": len(figures)}
        elif kind == "ASSET_CHECK_EVALUATION":
            evaluation = event.event_specific_data
            seen["checks"].setdefault(evaluation.asset_key.path[-1], {})[evaluation.check_name] = {
                "passed": evaluation.passed, "severity": evaluation.severity.value}
        elif kind == "ENGINE_EVENT" and event.message:
            seen["engine"].append(event.message)
    return seen


def said(error) -> str:
    """An error Dagster recorded, in one line: its class and message, and its cause's."""
    line = f"{error.cls_name}: {error.message.strip()}"
    return line + (f" (caused by {error.cause.cls_name}: {error.cause.message.strip()})" if error.cause else "")


def postgres(url: str) -> dict:
    """What the cross-campus views answer."""
    def query(sql: str) -> list[list[str]]:
        done = subprocess.run(["psql", url, "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                              capture_output=True, text=True, check=True)
        return [line.split("\t") for line in done.stdout.splitlines() if line]

    def counts(relation: str) -> dict[str, int]:
        return {row[0]: int(row[1]) for row in query(f"SELECT pipeline, count(*) FROM campuses.{relation} GROUP BY 1")}

    return {
        "menu_item": counts("menu_item"),
        "v_menu": counts("v_menu"),
        "campuses": {row[0]: row[1] for row in query(
            "SELECT pipeline, string_agg(DISTINCT campus, ', ' ORDER BY campus) FROM campuses.restaurant GROUP BY 1")},
    }


def snapshots(workspace: Path, names: list[str]) -> dict:
    """Menu items in each campus's latest SQLite snapshot."""
    counted = {}
    for name in names:
        with sqlite3.connect(f"file:{workspace / 'snapshots' / f'latest-{name}'}?mode=ro", uri=True) as database:
            counted[name] = database.execute("SELECT count(*) FROM menu_item").fetchone()[0]
    return counted


def unit_tests() -> dict:
    suite = unittest.defaultTestLoader.discover(str(HERE), pattern="test_*.py", top_level_dir=str(HERE))
    outcome = unittest.TextTestRunner(stream=sys.stderr, verbosity=2).run(suite)
    return {"ran": outcome.testsRun,
            "failed": [f"{test.id()}: {trace}" for test, trace in outcome.failures + outcome.errors]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ["binary", "postgres", "package-root", "shared-data", "folder"]:
        parser.add_argument(f"--{name}", required=True)
    given = parser.parse_args()
    folder, shared = Path(given.folder), Path(given.shared_data)
    report: dict = {"unit_tests": unit_tests()}

    killer = WorkerKiller(folder / "Pipelines" / "ucla.yml")
    stolaf, ucla = stolaf_site(shared, stall_first=6), ucla_site(shared, on_first_recipe=killer)
    try:
        pipelines = write_pipelines(folder, Path(given.package_root), stolaf.url, ucla.url)
        workspace = folder / "workspace"
        os.environ.update({
            "COMMISSARY_BINARY": given.binary,
            "COMMISSARY_PIPELINES": str(pipelines),
            "COMMISSARY_WORKSPACE": str(workspace),
            "COMMISSARY_FIRST_NIGHT": "2025-04-01",
            "COMMISSARY_RETRY_SECONDS": "0.5",
            "COMMISSARY_CONCURRENT_RUNS": "3",
            PG_VARIABLE: given.postgres,
        })
        report["run"] = materialize(folder)
        report["killed"] = killer.seen
        report["requests"] = {"stolaf": len(stolaf.requests), "ucla": len(ucla.requests)}
    finally:
        stolaf.stop()
        ucla.stop()
    report["postgres"] = postgres(given.postgres)
    report["snapshots"] = snapshots(workspace, ["sample", "stolaf", "ucla"])
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
