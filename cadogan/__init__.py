"""Cadogan: a companion for patience games played with real cards on a real table."""

__version__ = "0.1.0"
