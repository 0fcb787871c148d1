"""Draw the README's board pictures with the bot's real renderers: one per game mid-game, and the top row.

``python -m scripts.readme_boards [--out docs/screenshots] [--locale ru]`` plays each game from a
fixed seed with the game's own AI in every seat, stops after a set number of moves (or at the end),
and saves the public board as the bot would post it to ``<out>/playing-<game>.png``. Seeds and move
counts are fixed, so the same code draws the same pictures. No clock is drawn: a still picture has
no decision running. The README's top row (:data:`HEADLINES`) is drawn from the renderers' own
sample tables, which stage the moments a seeded game rarely stops at (a block being challenged, a
finished game).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from bot.presenters.registry import PRESENTERS
from bot.ui.text import image_names
from games.core.rng import GameRng
from games.registry import AGENTS, ENGINES


@dataclass(frozen=True)
class Picture:
    """One game's picture: how many seats, which options, how far into the game, from which seed."""

    game: str
    names: tuple[str, ...]
    moves: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = "readme"


NAMES = ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор")
PICTURES = (
    Picture("coup", NAMES[:5], moves=140),
    Picture("masti", NAMES[:4], moves=23, options={"teams": True}),
    Picture("cadwallon", NAMES[:3], moves=12),
    Picture("intrigue", NAMES[:4], moves=40),
)


#: The README's top row: file name, game and the key of the renderer's ``sample_views()`` table.
HEADLINES = (
    ("coup-board.png", "coup", "5p-challenge-block"),
    ("coup-final.png", "coup", "2p-over"),
    ("masti-board.png", "masti", "6p-mid-round"),
)


def play(picture: Picture) -> Any:
    """Return the state of ``picture``'s game after its moves, every seat played by the game's AI."""
    engine = ENGINES[picture.game]
    agent = AGENTS[picture.game]
    options = engine.options_type.model_validate(picture.options)
    state = engine.setup(len(picture.names), options, picture.seed).state
    for move in range(picture.moves):
        seats = sorted(engine.active_seats(state))
        if not seats:
            break
        seat = seats[0]
        legal = engine.legal_actions(state, seat)
        action = agent.choose(engine.view(state, seat), legal, GameRng(f"{picture.seed}:{move}"))
        state = engine.apply(state, seat, action).state
    return state


def draw(picture: Picture, locale: str) -> bytes:
    """Return the public board PNG of ``picture`` in ``locale``."""
    state = play(picture)
    view = ENGINES[picture.game].view(state, None)
    return PRESENTERS[picture.game].render_board(view, image_names(picture.names), locale)


def draw_headline(game: str, sample: str, locale: str) -> bytes:
    """Return the public board PNG of the renderer's sample table ``sample`` of ``game``."""
    module = import_module(f"bot.render.{game}")
    view, names = module.sample_views()[sample]
    return PRESENTERS[game].render_board(view, image_names(names), locale)


def main(argv: Sequence[str] | None = None) -> int:
    """Write every picture."""
    parser = argparse.ArgumentParser(prog="python -m scripts.readme_boards", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"), help="output directory")
    parser.add_argument("--locale", default="ru", choices=("ru", "en"), help="language of the boards")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for picture in PICTURES:
        path = args.out / f"playing-{picture.game}.png"
        path.write_bytes(draw(picture, args.locale))
        print(path)
    for name, game, sample in HEADLINES:
        path = args.out / name
        path.write_bytes(draw_headline(game, sample, args.locale))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
