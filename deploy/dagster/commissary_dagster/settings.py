"""The code location's settings, from its environment (a Dagster code server passes its own on)."""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping


class SettingsError(Exception):
    """A setting missing or unreadable; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    # COMMISSARY_BINARY: the binary (default: `commissary` on the PATH).
    binary: str
    # COMMISSARY_PIPELINES: pipeline files, or folders of them, separated by `:` (required).
    pipelines: list[Path]
    # COMMISSARY_WORKSPACE: the runs' workspace, shared as cron shares it (default: the current folder).
    workspace: Path
    # COMMISSARY_FIRST_NIGHT: the first night of the nightly pipelines' partitions (YYYY-MM-DD;
    # required when a pipeline is nightly).
    first_night: str | None
    # COMMISSARY_TIMEZONE: the clock the nights and the schedule keep (default: UTC).
    timezone: str
    # COMMISSARY_RETRY_SECONDS: the first retry's wait, doubled at each further one (default: 60).
    retry_seconds: float
    # COMMISSARY_RETRIES: attempts after the first (default: 3).
    retries: int
    # COMMISSARY_CONCURRENT_RUNS: runs at once in a Dagster run (default 0: as many as cores). Runs
    # mostly wait on their sites, so many campuses want more than the cores (docs/scaling.md).
    concurrent_runs: int

    @staticmethod
    def from_environment(environment: Mapping[str, str] = os.environ) -> "Settings":
        listed = environment.get("COMMISSARY_PIPELINES", "")
        if not listed.strip():
            raise SettingsError("COMMISSARY_PIPELINES is not set: name the campuses' pipeline files (or folders), "
                                "separated by ':'")
        return Settings(
            binary=environment.get("COMMISSARY_BINARY", "commissary"),
            pipelines=[Path(entry) for entry in listed.split(os.pathsep) if entry],
            workspace=Path(environment.get("COMMISSARY_WORKSPACE", ".")).absolute(),
            first_night=environment.get("COMMISSARY_FIRST_NIGHT"),
            timezone=environment.get("COMMISSARY_TIMEZONE", "UTC"),
            retry_seconds=_number(environment, "COMMISSARY_RETRY_SECONDS", "60", float),
            retries=_number(environment, "COMMISSARY_RETRIES", "3", int),
            concurrent_runs=_number(environment, "COMMISSARY_CONCURRENT_RUNS", "0", int),
        )


def _number(environment: Mapping[str, str], name: str, default: str, kind: type) -> float | int:
    text = environment.get(name, default)
    try:
        value = kind(text)
    except ValueError:
        raise SettingsError(f"{name} is {text!r}: expected a number") from None
    if value < 0:
        raise SettingsError(f"{name} is {text!r}: expected a number not below 0")
    return value
