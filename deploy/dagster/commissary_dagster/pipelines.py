"""The pipeline files the code location materializes, each read for what Dagster needs to know of it."""

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import yaml


class PipelineFileError(Exception):
    """A pipeline file the code location cannot use; the message names the file."""


@dataclass(frozen=True)
class PipelineFile:
    path: Path
    name: str
    description: str
    # A source whose dates follow the calendar (`days_ahead`) makes each night's run a day of its
    # own: such a pipeline is partitioned by night and run `--as-of` that night.
    nightly: bool
    # The web hosts (host:port) its sources ask: pipelines asking one host take turns, since each
    # run keeps its own spacing and two side by side would ask twice as fast (docs/scaling.md).
    hosts: tuple[str, ...]

    @staticmethod
    def read(path: Path) -> "PipelineFile":
        try:
            spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as error:
            raise PipelineFileError(f"{path}: cannot be read as a pipeline file ({error})") from error
        if not isinstance(spec, dict) or not isinstance(spec.get("pipeline"), str):
            raise PipelineFileError(f"{path}: no `pipeline:` name at the top")
        sources = spec.get("sources") if isinstance(spec.get("sources"), list) else []
        dates = [source.get("dates") for source in sources if isinstance(source, dict)]
        locations = [str(source.get("location", "")) for source in sources if isinstance(source, dict)]
        hosts = sorted({urlsplit(location).netloc for location in locations
                        if urlsplit(location).scheme in ("http", "https")})
        return PipelineFile(
            path=path,
            name=spec["pipeline"],
            description=" ".join(str(spec.get("description", "")).split()),
            nightly=any(isinstance(selection, dict) and "days_ahead" in selection for selection in dates),
            hosts=tuple(hosts),
        )


def pipeline_files(entries: list[Path]) -> list[PipelineFile]:
    """Each entry a pipeline file, or a folder whose `*.yml` files are all campuses' pipelines."""
    files: list[Path] = []
    for entry in entries:
        if entry.is_dir():
            files += sorted(entry.glob("*.yml"))
        elif entry.is_file():
            files.append(entry)
        else:
            raise PipelineFileError(f"{entry}: no such pipeline file or folder")
    pipelines = [PipelineFile.read(path) for path in files]
    names = [pipeline.name for pipeline in pipelines]
    for name in sorted({name for name in names if names.count(name) > 1}):
        paths = ", ".join(str(pipeline.path) for pipeline in pipelines if pipeline.name == name)
        raise PipelineFileError(f"pipeline {name} is named by two files ({paths}): runs of one name share a lock")
    return pipelines
