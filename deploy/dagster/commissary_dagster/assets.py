"""Each campus's pipeline as one Dagster asset, materialized by running the binary."""

import re

from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetKey,
    AssetsDefinition,
    Backoff,
    DataVersion,
    Failure,
    MaterializeResult,
    MetadataValue,
    PartitionsDefinition,
    RetryPolicy,
    RetryRequested,
    asset,
)

from . import cli
from .outcome import Verdict, checks_table, failed_checks, figures, stale_partitions, verdict
from .pipelines import PipelineFile
from .settings import Settings

GROUP = "campuses"
# The three checks every pipeline's asset carries: the run's own checks, by what they do.
BLOCKING = "blocking_checks"
WARNINGS = "warning_checks"
STALE = "fresh_partitions"


class RunFailed(Exception):
    """A run's exit status and its own last line, as the cause of a retry or failure."""


def host_tag(host: str) -> str:
    """The op tag that puts the runs asking one host in one queue (one run at a time)."""
    return "commissary/host-" + re.sub(r"[^A-Za-z0-9_.-]", "_", host)


def pipeline_asset(pipeline: PipelineFile, settings: Settings, night: PartitionsDefinition | None) -> AssetsDefinition:
    """`night` partitions a nightly pipeline (each key one `--as-of` night); others are unpartitioned."""
    key = AssetKey(["commissary", pipeline.name])
    check_specs = [
        AssetCheckSpec(BLOCKING, asset=key, blocking=True,
                       description="No check of severity error failed (a failure is exit 3: nothing published, "
                                   "the previous snapshot stays latest)."),
        AssetCheckSpec(WARNINGS, asset=key, description="No check of severity warning failed."),
        AssetCheckSpec(STALE, asset=key,
                       description="No partition was carried stale from its last good version (exit 6)."),
    ]

    @asset(
        key=key,
        group_name=GROUP,
        description=pipeline.description or f"The snapshot pipeline {pipeline.name} publishes ({pipeline.path}).",
        partitions_def=night if pipeline.nightly else None,
        check_specs=check_specs,
        # A blocked run (exit 3) materializes nothing: its checks say why.
        output_required=False,
        # A worker that died (killed, out of memory) or an error of this code: another attempt,
        # which resumes what the run had done (the ledger). Exit statuses ask for theirs below.
        retry_policy=RetryPolicy(max_retries=settings.retries, delay=settings.retry_seconds,
                                 backoff=Backoff.EXPONENTIAL),
        op_tags={host_tag(host): "asks" for host in pipeline.hosts},
        metadata={"pipeline_file": MetadataValue.path(str(pipeline.path))},
        kinds={"sqlite"},
    )
    def materialize(context: AssetExecutionContext):
        outcome = cli.run(settings.binary, pipeline, settings.workspace,
                          context.partition_key if pipeline.nightly else None, context.log.info)
        found = verdict(outcome.status)
        failure = RunFailed(f"{pipeline.path}: commissary run ended with status {outcome.status}: {outcome.said}")
        if found is Verdict.RETRY:
            raise RetryRequested(max_retries=settings.retries,
                                 seconds_to_wait=settings.retry_seconds * 2 ** context.retry_number) from failure
        if found is Verdict.FAILED:
            raise Failure(description=str(failure), allow_retries=False)
        manifest = outcome.manifest
        if manifest is None:
            raise Failure(description=f"{pipeline.path}: the run ended with status {outcome.status} and left no "
                                      f"manifest in {settings.workspace}: {outcome.said}", allow_retries=False)
        results = [] if manifest.get("unchanged") else check_results(manifest, found)
        if found is Verdict.BLOCKED:
            # Dagster fails the step on the blocking check: nothing downstream reads a night not published.
            yield from results
            return
        yield MaterializeResult(metadata=figures(manifest), check_results=results,
                                data_version=DataVersion(manifest.get("inputs_sha256", "")))
        if found is Verdict.UNRECORDED:
            raise Failure(description=str(failure), allow_retries=False)

    return materialize


def check_results(manifest: dict, found: Verdict) -> list[AssetCheckResult]:
    """The run's checks as the asset's three: the exit status decides each verdict (3 fails the
    blocking one, 6 the fresh one), the manifest gives the detail."""
    def kind(severity: str) -> dict:
        checks = [check for check in manifest.get("checks", []) if check.get("severity") == severity]
        return {"failed": len(failed_checks(manifest, severity)), "checks": MetadataValue.md(checks_table(checks))}

    errors, warnings, stale = kind("error"), kind("warning"), stale_partitions(manifest)
    freshness = {"stale": len(stale), "partitions": ", ".join(stale)}
    return [
        AssetCheckResult(check_name=BLOCKING, passed=found is not Verdict.BLOCKED,
                         severity=AssetCheckSeverity.ERROR, metadata=errors),
        AssetCheckResult(check_name=WARNINGS, passed=warnings["failed"] == 0,
                         severity=AssetCheckSeverity.WARN, metadata=warnings),
        AssetCheckResult(check_name=STALE, passed=found is not Verdict.STALE and not stale,
                         severity=AssetCheckSeverity.WARN, metadata=freshness),
    ]
