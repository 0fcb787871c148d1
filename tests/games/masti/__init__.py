"""Tests of the «Масти Власти» engine."""
