"""The name helpers: what a hostile display name becomes in text, in a label and in an image."""

from __future__ import annotations

import re

import discord
import pytest

from bot.ui.text import (
    BLANK_NAME,
    NO_PINGS,
    image_name,
    label_name,
    pinging,
    safe_name,
    safe_names,
    safe_text,
)

FSI, PDI = "\u2068", "\u2069"
MENTION = "<@123456789012345678>"


def test_plain_names_are_unchanged_everywhere():
    for name in ("alice", "Аня", "Jean Luc", "player 3", "👨\u200d👩\u200d👧 Ma"):
        assert safe_name(name) == label_name(name) == image_name(name) == name


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (MENTION, "\\<@\u200b123456789012345678\\>"),
        ("<@!123456789012345678>", "\\<@\u200b!123456789012345678\\>"),
        ("<@&123456789012345678>", "\\<@\u200b&123456789012345678\\>"),
        ("<#123456789012345678>", "\\<#123456789012345678\\>"),
        ("@everyone", "@\u200beveryone"),
        ("@here now", "@\u200bhere now"),
        ("[gift](https://e.x/a)", "\\[gift\\](https://e.x/a)"),
        ("**b** __u__", "\\*\\*b\\*\\* \\_\\_u\\_\\_"),
        ("~~s~~ ||x|| `c`", "\\~\\~s\\~\\~ \\|\\|x\\|\\| \\`c\\`"),
        ("# big", "\\# big"),
        ("-# small", "\\-# small"),
        ("- item", "\\- item"),
        ("> quote", "\\> quote"),
        ("12. x", "12\\. x"),
        ("a#b-c 1.", "a#b-c 1."),  # heading and list marks matter only at the start of a line
        ("back\\slash", "back\\\\slash"),
    ],
)
def test_text_escapes_mentions_links_and_markdown(name, text):
    assert safe_name(name) == text
    assert label_name(name) == image_name(name) == name  # labels and images show the name as typed


def test_the_escape_of_a_mention_cannot_be_undone_by_a_backslash_in_the_name():
    # "\" + mention: the name's own backslash is escaped, so the "<" stays escaped too.
    assert safe_name("\\" + MENTION) == "\\\\\\<@\u200b123456789012345678\\>"


def test_two_names_side_by_side_cannot_form_a_masked_link():
    line = f"{safe_name('[free')}, {safe_name('](https://e.x/nitro)')}"
    assert not re.search(r"(?<!\\)\[[^\n]*?(?<!\\)\]\(", line)


def test_a_right_to_left_override_is_removed_and_cannot_reverse_the_line():
    name = "\u202eevil\u202c"
    assert safe_name(name) == label_name(name) == image_name(name) == "evil"
    for control in "\u202a\u202b\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c":
        assert image_name(f"a{control}b") == "ab"


@pytest.mark.parametrize("name", ["שלום", "مرحبا", "x ١٢٣", "abc \u05d0"])
def test_right_to_left_names_are_isolated(name):
    assert safe_name(name) == label_name(name) == f"{FSI}{name}{PDI}"
    assert image_name(name) == name  # the image draws the letters, no invisible marks


def test_zero_width_and_control_characters_are_removed():
    assert image_name("a\u200bb\u2060c\ufeffd\u00ade") == "abcde"
    assert image_name("two\nlines\tand  spaces ") == "two lines and spaces"
    # The joiners of emoji sequences and of Persian spelling stay.
    assert image_name("می\u200cخواهم") == "می\u200cخواهم"


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u202e", " \n ", ""])
def test_a_name_with_nothing_visible_shows_a_placeholder(name):
    assert safe_name(name) == label_name(name) == image_name(name) == BLANK_NAME


def test_thirty_two_character_names_stay_within_discord_limits():
    worst = "*" * 32  # Discord's longest nickname, every character escaped
    assert len(safe_name(worst)) == 64
    # Eight seats listed in one embed field (limit 1024) and in a select option label (limit 100).
    assert len(", ".join(safe_names([worst] * 8))) < 1024
    assert len(label_name("\u05d0" * 32)) == 34
    mixed = "# **b** __u__ ||s|| `c` ~~x~~ _1"
    assert len(mixed) == 32
    assert safe_name(mixed) == "\\# \\*\\*b\\*\\* \\_\\_u\\_\\_ \\|\\|s\\|\\| \\`c\\` \\~\\~x\\~\\~ \\_1"


def test_typed_text_is_escaped_like_a_name():
    assert safe_text("<@123456789012345678> B2E") == "\\<@\u200b123456789012345678\\> B2E"
    assert safe_text("") == ""


def test_allowed_mentions_name_only_whom_a_message_pings():
    assert dict(NO_PINGS.to_dict()) == {"parse": []}
    assert dict(pinging([1, 2]).to_dict()) == {"parse": [], "users": [1, 2]}
    # The bot-wide default (none) merged with a message's own keeps only that message's users.
    assert dict(discord.AllowedMentions.none().merge(pinging([3])).to_dict()) == {"parse": [], "users": [3]}
