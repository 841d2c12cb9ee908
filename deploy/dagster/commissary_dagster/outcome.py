"""What a run's exit status and manifest mean to an orchestrator. Apart from Dagster, so that a
test holds the Kubernetes manifest's failure policy to the same table without importing it."""

from enum import Enum


class Verdict(Enum):
    # Published, found current (`unchanged`), or a subset run that harvested its partitions.
    MATERIALIZED = "materialized"
    # 6: published, some days carried stale from their last good version: a failed check (WARN).
    STALE = "stale"
    # 3: a blocking check stopped the publication; the previous snapshot stays latest: a failed
    # check (ERROR), and no retry (the same inputs would fail the same way).
    BLOCKED = "blocked"
    # 5: published and latest, but its manifest or the ledger could not be written: materialized,
    # then a failure for a person to look at.
    UNRECORDED = "unrecorded"
    # 2: another run holds the lock; 4: the environment (a site unreachable, a full disk);
    # 129/130/143 or any signal: stopped, and the next run resumes. Each worth another attempt.
    RETRY = "retry"
    # 1: a bad input; 64: unreadable arguments; anything else: a failure no retry mends.
    FAILED = "failed"


RETRYABLE_STATUSES = frozenset({2, 4, 129, 130, 143})


def verdict(status: int) -> Verdict:
    """The verdict of a `commissary run` exit status (negative: ended by that signal)."""
    if status == 0:
        return Verdict.MATERIALIZED
    if status == 6:
        return Verdict.STALE
    if status == 3:
        return Verdict.BLOCKED
    if status == 5:
        return Verdict.UNRECORDED
    if status in RETRYABLE_STATUSES or status < 0:
        return Verdict.RETRY
    return Verdict.FAILED


def failed_checks(manifest: dict | None, severity: str) -> list[dict]:
    """The manifest's checks of that severity (`error`, `warning`) that did not pass."""
    return [check for check in (manifest or {}).get("checks", [])
            if check.get("severity") == severity and not check.get("passed", True)]


def stale_partitions(manifest: dict | None) -> list[str]:
    """`source/partition` of each partition the run carried from its last good version."""
    return [f"{partition.get('source')}/{partition.get('key')}" for partition in (manifest or {}).get("partitions", [])
            if partition.get("status") == "stale"]


def checks_table(checks: list[dict]) -> str:
    """The checks as a Markdown table, for a check result's metadata."""
    rows = ["| check | severity | passed | value | message |", "|---|---|---|---:|---|"]
    for check in checks:
        message = str(check.get("message", "")).replace("|", "\\|")
        rows.append(f"| {check.get('name')} | {check.get('severity')} | {check.get('passed')} | "
                    f"{check.get('value', '')} | {message} |")
    return "\n".join(rows)


def figures(manifest: dict) -> dict[str, float | int | str]:
    """A run's figures, flat, for the materialization's metadata: its status and night, rows per
    table, partitions by what became of them, each stage's seconds, documents and memory."""
    found: dict[str, float | int | str] = {
        "status": manifest.get("status", ""),
        "night": manifest.get("today", ""),
        "run_id": manifest.get("run_id", ""),
        "snapshot": manifest.get("snapshot", ""),
        "peak_memory_mb": manifest.get("peak_memory_mb", 0),
    }
    for table, count in sorted(manifest.get("row_counts", {}).items()):
        found[f"rows/{table}"] = count
    partitions = [partition.get("status", "") for partition in manifest.get("partitions", [])]
    for status in sorted(set(partitions)):
        found[f"partitions/{status}"] = partitions.count(status)
    for stage in manifest.get("stages", []):
        found[f"seconds/{stage.get('name')}"] = round(float(stage.get("seconds", 0)), 3)
        if stage.get("name") == "fetch":
            found["documents"] = stage.get("counts", {}).get("documents", 0)
    return found
