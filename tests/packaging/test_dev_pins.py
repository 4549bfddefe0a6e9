"""The development tools are pinned (constraints-dev.txt, used by the Makefile) to versions
inside the ranges of pyproject.toml, and the suite runs with exactly those versions."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints-dev.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep and version, f"not an exact pin: {line!r}"
        pins[canonicalize_name(name)] = version.strip()
    return pins


def _dev_requirements() -> list[Requirement]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(r) for r in pyproject["project"]["optional-dependencies"]["dev"]]


def test_every_dev_tool_is_pinned_within_its_range() -> None:
    pins = _pins()
    for req in _dev_requirements():
        version = pins.get(canonicalize_name(req.name))
        assert version is not None, f"{req.name} is not pinned in constraints-dev.txt"
        assert req.specifier.contains(version), f"{req.name}=={version} is outside {req}"
        assert any(spec.operator in ("<", "<=", "==") for spec in req.specifier), (
            f"{req} has no upper bound in pyproject.toml"
        )


def test_the_suite_runs_with_the_pinned_versions() -> None:
    for name, version in _pins().items():
        assert metadata.version(name) == version, (
            f"{name} {metadata.version(name)} is installed but constraints-dev.txt pins {version}:"
            " run `make venv` (or update the pin after checking `make test` passes)"
        )
