"""Synthetic table renderer (in progress)."""
