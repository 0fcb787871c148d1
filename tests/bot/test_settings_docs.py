"""Every setting is documented: in the README's settings table and in ``.env.example``."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_table_lists_every_setting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Settings", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.MULTILINE)
    assert listed == [name.upper() for name in Settings.model_fields]


def test_the_example_env_file_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    keys = re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE)
    assert keys == [name.upper() for name in Settings.model_fields]
