r"""Names and other text members typed, made safe for the messages, labels and images the bot posts.

A member chooses their display name, so it may hold anything Discord lets through: mention syntax
(``<@id>``, ``@everyone``), a masked link (``[gift](https://…)``), markdown, invisible characters,
or a right-to-left override (U+202E) that would reverse the rest of the line it is printed in.
Every user-supplied text is turned into one of three forms where it enters the bot's output:

* :func:`image_name`, for the board images: the name as members see it, minus invisible
  formatting characters (images are not markdown, so nothing is escaped);
* :func:`label_name`, for button and select labels: Discord shows labels literally (no markdown, no
  mentions, no links), so the name is only cleaned and, if it holds right-to-left letters, isolated;
* :func:`safe_name` / :func:`safe_text`, for message content and embeds: cleaned, every markdown
  and mention character escaped, and isolated like a label.

Cleaning removes invisible format characters (Unicode category Cf: zero-width space, word joiner,
BOM, soft hyphen, every bidi embedding/override/isolate/mark) but keeps the zero-width joiner and
non-joiner (emoji sequences and Persian or Indic spelling need them) and tag characters (subdivision
flags); control characters such as newlines become spaces. A name with nothing visible left is
shown as ``?``.

Right-to-left text is not reversed or stripped: a name holding right-to-left letters (Hebrew,
Arabic) or Arabic digits is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, so it is laid
out on its own and cannot reorder the text around it. Names without such characters are left as
they are, so ordinary names read exactly as typed.

Markdown is escaped with a backslash before every character that can start formatting anywhere in a
line (``\ * _ ~ | ` [ ] < >``; ``>`` also starts a quote), and before ``# - +`` or an ordered-list
``1.`` at the name's start (where a name beginning a line would make a heading, subtext or list).
``discord.utils.escape_markdown`` alone is not enough: it escapes a masked link only when its two
halves are in the same name, while two players' names printed side by side (``[x`` and
``](https://…)``) could form one; escaping every bracket and angle bracket also defuses channel,
role, command and timestamp syntax. Mentions
(``@everyone``, ``@here``, ``<@id>``) are then broken with :func:`discord.utils.escape_mentions`.
Messages also carry ``allowed_mentions`` (see :data:`NO_PINGS`), so even text that slipped through
could not ping anyone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

import discord

#: The answer for a name with nothing visible in it.
BLANK_NAME = "?"
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
#: Invisible format characters kept: they join emoji sequences and shape Persian and Indic words.
KEPT_FORMAT = frozenset({"\u200c", "\u200d"})
#: Tag characters (subdivision flags such as England's) are format characters that draw nothing alone.
TAGS = range(0xE0020, 0xE0080)
#: Bidirectional classes whose presence makes a name need isolating.
RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})
#: Characters that start Discord formatting anywhere in a line.
_INLINE = re.compile(r"([\\*_~|`\[\]<>])")
#: Formatting a name makes only at the start of a line: heading, list, subtext (a quote's ``>`` is inline).
_LINE_START = re.compile(r"^(?:([#+-])|(\d+)\.)")
#: No message of the bot may ping anyone it does not name here.
NO_PINGS = discord.AllowedMentions.none()


def clean(text: str) -> str:
    """Return ``text`` without invisible format characters, with controls as spaces, trimmed."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" and char not in KEPT_FORMAT and ord(char) not in TAGS:
            continue
        out.append(" " if category == "Cc" else char)
    return " ".join("".join(out).split())


def isolate(text: str) -> str:
    """Return ``text`` wrapped in a directional isolate if it holds right-to-left characters."""
    if any(unicodedata.bidirectional(char) in RIGHT_TO_LEFT for char in text):
        return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"
    return text


def escape(text: str) -> str:
    """Return ``text`` with its markdown and mention syntax escaped (see the module docstring)."""
    escaped = _INLINE.sub(r"\\\1", text)
    escaped = _LINE_START.sub(lambda m: "\\" + m[1] if m[1] else m[2] + "\\.", escaped)
    return discord.utils.escape_mentions(escaped)


def image_name(name: str) -> str:
    """Return ``name`` as a board image draws it: the real name without invisible characters."""
    return clean(name) or BLANK_NAME


def label_name(name: str) -> str:
    """Return ``name`` for a button or select label (shown literally by Discord)."""
    return isolate(image_name(name))


def safe_name(name: str) -> str:
    """Return ``name`` for message content or an embed: escaped, isolated, unable to ping."""
    return isolate(escape(image_name(name)))


def safe_text(text: str) -> str:
    """Return any other member-typed ``text`` (an option they typed) for a message or an embed."""
    return isolate(escape(clean(text)))


def safe_names(names: Iterable[str]) -> list[str]:
    """Return :func:`safe_name` of each name, in order."""
    return [safe_name(name) for name in names]


def label_names(names: Iterable[str]) -> list[str]:
    """Return :func:`label_name` of each name, in order."""
    return [label_name(name) for name in names]


def image_names(names: Iterable[str]) -> list[str]:
    """Return :func:`image_name` of each name, in order."""
    return [image_name(name) for name in names]


def pinging(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Return the ``allowed_mentions`` of a message that means to ping exactly ``user_ids``."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user_id) for user_id in user_ids], replied_user=False
    )
