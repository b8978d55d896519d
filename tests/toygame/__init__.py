"""A toy game (Nim) that proves a game kind is cheap to add: it lives only under ``tests/``."""
