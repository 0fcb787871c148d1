"""The long-run script: its report ends with what failed (CI shows the tail), and its tests share the cores."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scripts.soak import failures, xdist_args


def test_failures_are_pytests_short_summary(tmp_path: Path) -> None:
    log = tmp_path / "pytest.log"
    log.write_text(
        "....F..\n== FAILURES ==\nlong traceback\n== short test summary info ==\nFAILED tests/x.py::test_y - boom\n",
        encoding="utf-8",
    )
    assert failures(log) == ["== short test summary info ==", "FAILED tests/x.py::test_y - boom"]


def test_failures_without_a_summary_keep_the_log_tail(tmp_path: Path) -> None:
    log = tmp_path / "pytest.log"
    log.write_text("\n".join(f"line {i}" for i in range(100)), encoding="utf-8")
    assert failures(log, limit=3) == ["line 97", "line 98", "line 99"]
    assert failures(tmp_path / "missing.log") == ["(no pytest log)"]


@pytest.mark.parametrize(("cores", "expected"), [(1, []), (2, ["-n", "2"]), (16, ["-n", "2"]), (None, [])])
def test_the_long_tests_share_at_most_two_cores(monkeypatch: pytest.MonkeyPatch, cores, expected) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    args = xdist_args()
    assert args[:2] == expected
    assert ("--dist" in args) == bool(expected)
