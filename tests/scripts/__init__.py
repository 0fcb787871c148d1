"""Tests of the developer scripts."""
