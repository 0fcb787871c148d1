"""Smoke tests of the performance suite."""
