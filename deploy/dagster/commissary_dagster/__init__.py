"""Commissary's Dagster code location: each campus's pipeline an asset, partitioned by night where
its days follow the calendar, materialized by running the commissary binary (docs/orchestrators.md).

`dagster dev` in deploy/dagster loads `defs`; its settings come from the environment (settings.py),
read when Dagster loads the definitions rather than when the package is imported."""

from dagster import Definitions, definitions

from .location import build
from .settings import Settings


@definitions
def defs() -> Definitions:
    return build(Settings.from_environment())
