"""Tests of the «Гильдии Кадвалона» engine."""
