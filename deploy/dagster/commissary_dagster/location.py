"""The code location's definitions, built from its settings: the assets, the nightly job, its
schedule and the executor."""

from dagster import (
    AssetSelection,
    DailyPartitionsDefinition,
    Definitions,
    ScheduleDefinition,
    build_schedule_from_partitioned_job,
    define_asset_job,
    multiprocess_executor,
)

from .assets import GROUP, host_tag, pipeline_asset
from .pipelines import PipelineFile, pipeline_files
from .settings import Settings, SettingsError

# The time cron's line starts the night (deploy/crontab).
NIGHT_HOUR, NIGHT_MINUTE = 2, 15


def build(settings: Settings) -> Definitions:
    pipelines = pipeline_files(settings.pipelines)
    night = None
    if any(pipeline.nightly for pipeline in pipelines):
        if not settings.first_night:
            raise SettingsError("COMMISSARY_FIRST_NIGHT is not set: the first night (YYYY-MM-DD) of the nightly "
                                "pipelines' partitions")
        # end_offset=1: tonight is a partition from midnight on, so the 02:15 run is `--as-of` today, as cron's.
        night = DailyPartitionsDefinition(start_date=settings.first_night, timezone=settings.timezone, end_offset=1)
    assets = [pipeline_asset(pipeline, settings, night) for pipeline in pipelines]
    nightly = define_asset_job("nightly", selection=AssetSelection.groups(GROUP))
    if night is not None:
        schedule = build_schedule_from_partitioned_job(nightly, hour_of_day=NIGHT_HOUR, minute_of_hour=NIGHT_MINUTE)
    else:
        schedule = ScheduleDefinition(job=nightly, cron_schedule=f"{NIGHT_MINUTE} {NIGHT_HOUR} * * *",
                                      execution_timezone=settings.timezone)
    # Each step in a process of its own (a killed worker is one campus's).
    executor_config = {"tag_concurrency_limits": host_queues(pipelines)}
    if settings.concurrent_runs:
        executor_config["max_concurrent"] = settings.concurrent_runs
    executor = multiprocess_executor.configured(executor_config)
    return Definitions(assets=assets, jobs=[nightly], schedules=[schedule], executor=executor)


def host_queues(pipelines: list[PipelineFile]) -> list[dict]:
    """The executor's limits that run one pipeline at a time per host its sources ask."""
    hosts = sorted({host for pipeline in pipelines for host in pipeline.hosts})
    return [{"key": host_tag(host), "limit": 1} for host in hosts]

