"""The vendored copy of the spec's worked examples matches the spec."""

from __future__ import annotations

from tests.conftest import ROOT, SPEC_EXAMPLES

SHARED = ROOT.parent / "shared" / "spec" / "examples"


def test_every_spec_example_is_vendored_unchanged() -> None:
    assert SHARED.is_dir(), f"the spec folder is expected beside the checkout at {SHARED}"
    wanted = {p.name for p in SHARED.iterdir() if p.suffix in {".json", ".txt"}}
    have = {p.name for p in SPEC_EXAMPLES.iterdir() if p.suffix in {".json", ".txt"}}
    assert wanted == have
    for name in sorted(wanted):
        assert (SHARED / name).read_bytes() == (SPEC_EXAMPLES / name).read_bytes(), name


def test_the_run_command_example_is_the_spec_record() -> None:
    shipped = ROOT / "examples" / "spec-rings.record.json"
    assert shipped.read_bytes() == (SPEC_EXAMPLES / "spec-rings.record.json").read_bytes()
