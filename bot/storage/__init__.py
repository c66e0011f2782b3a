"""Persistence: one SQLite connection (db.py) and small repositories over it."""

from .db import Database

__all__ = ["Database"]
