"""One run of the commissary binary, as cron starts it, and what the run left: its exit status,
its events and its manifest."""

import ctypes
import json
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .pipelines import PipelineFile


@dataclass
class RunOutcome:
    # The exit status; negative when a signal ended the run (-9: SIGKILL).
    status: int
    events: list[dict] = field(default_factory=list)
    # The run's manifest (docs/pipelines.md): its stages, partitions, checks and row counts.
    # None when the run ended before it wrote one (a bad pipeline file, a signal).
    manifest: dict | None = None
    # Output that is no event: the summary and the last line saying what went wrong.
    lines: list[str] = field(default_factory=list)

    @property
    def said(self) -> str:
        """The run's own last word: its `error:` or `warning:` line, else its last line."""
        for line in reversed(self.lines):
            if line.startswith(("error: ", "warning: ")):
                return line
        return self.lines[-1] if self.lines else f"exit status {self.status}, nothing said"


# Linux's prctl, looked up here rather than in the child: loading a library between fork and exec
# could wait for a lock another thread of the worker held when it forked.
_PRCTL = ctypes.CDLL(None).prctl if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def _stop_with_worker() -> None:
    """In the child, before exec: a SIGTERM when the worker that started it dies, so that a
    killed Dagster step leaves no run behind holding the pipeline's lock (commissary stops on
    SIGTERM with 143, and its next run resumes)."""
    _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM)


def run(binary: str, pipeline: PipelineFile, workspace: Path, night: str | None,
        log: Callable[[str], None]) -> RunOutcome:
    """Runs the pipeline to its end, `--as-of night` if given; `log` hears each stage's end."""
    arguments = [binary, "run", str(pipeline.path), "--workspace", str(workspace), "--log-format", "json"]
    if night is not None:
        arguments += ["--as-of", night]
    log(" ".join(arguments))
    outcome = RunOutcome(status=0)
    # Standard output (the summary) joins the events' stream: one pipe, read to its end.
    with subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          preexec_fn=_stop_with_worker if _PRCTL else None) as process:
        try:
            assert process.stdout is not None
            for line in process.stdout:
                line = line.rstrip("\n")
                event = _event(line)
                if event is None:
                    outcome.lines.append(line)
                    continue
                outcome.events.append(event)
                if event.get("event") in ("stage_finished", "run_finished"):
                    log(line)
            outcome.status = process.wait()
        finally:
            # The step stopped from Dagster (a terminated run): the run stops as on SIGTERM and resumes.
            if process.poll() is None:
                process.terminate()
    outcome.manifest = _manifest(outcome.events, workspace, pipeline.name)
    return outcome


def _event(line: str) -> dict | None:
    if not line.startswith("{"):
        return None
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return None
    return event if isinstance(event, dict) and "event" in event else None


def _manifest(events: list[dict], workspace: Path, pipeline: str) -> dict | None:
    """The manifest of the run the events tell of: under state/runs/ for a run that did not
    publish (or found its snapshot current), else beside the snapshot it published."""
    finished = next((event for event in reversed(events) if event.get("event") == "run_finished"), None)
    if finished is None:
        return None
    run_id = finished.get("run_id")
    candidates = [workspace / "state" / "runs" / pipeline / f"{run_id}.manifest.json"]
    if "path" in finished:
        candidates.append(Path(finished["path"] + ".manifest.json"))
    for candidate in candidates:
        try:
            manifest = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if manifest.get("run_id") == run_id:
            return manifest
    return None
