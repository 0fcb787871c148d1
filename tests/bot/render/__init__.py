"""Tests of the board renderers (bot.render)."""
