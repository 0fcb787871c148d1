"""The long-run report ends with what failed, so CI's tail of the output names the failing tests."""

from __future__ import annotations

from pathlib import Path

from scripts.soak import failures


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
