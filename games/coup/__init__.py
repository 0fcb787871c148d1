"""Переворот (Coup): rules engine, per-seat views and AI."""
