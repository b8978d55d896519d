"""Tests of companion.box: release files, the updater."""
