"""What the guided ring test says of a ring that passed, as the API sends it: kept here once
for the test of the ring test itself (tests/doctor/test_guided.py) and the API's
(tests/web/test_health_api.py)."""

from __future__ import annotations

from typing import Any


def passed_ring(ring: int, line_edges: list[int]) -> dict[str, Any]:
    """A passed ring's result: ``ring N: +1 ✓, −1 ✓, lines A and B both toggled, 0 errors``."""
    return {
        "ring": ring,
        "verdict": "passed",
        "plus": True,
        "minus": True,
        "line_edges": line_edges,
        "errors": 0,
        "phrase": {  # the words, for the page to say in the phone's language
            "text": "ring {ring}: {plus}, {minus}, {lines}, {errors}",
            "values": {
                "ring": ring,
                "plus": "+1 ✓",
                "minus": "−1 ✓",
                "lines": {"text": "lines A and B both toggled"},
                "errors": {
                    "text": "{count} error",
                    "plural": "{count} errors",
                    "count": 0,
                },
            },
        },
    }
