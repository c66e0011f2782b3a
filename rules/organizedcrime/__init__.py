"""Organized Crime's rules engine (rulings.md, replay.md, errata.md of the spec): one `Game` object, `GAME`."""
