"""Data and documents only: board files, the pin and LED maps, game data, the wiring guide.

It is a package so that the TOML files ship inside the installed distribution; code reads
them through ``importlib.resources.files("hardware")``. No code belongs here.
"""
