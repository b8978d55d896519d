"""Draw the panel's home-screen icons: ``icon.svg``, then PNGs of it rendered by Chromium.

    .venv/bin/python tools/icons.py     # rewrite companion/web/static/icons/*

The icon is the ring board seen from above: five coloured rings with a black path at the
top to Central Control and its star. There is no build step; the PNGs are committed. They
are rendered by Debian's Chromium through Playwright (the browser the tests use).
"""

from __future__ import annotations

import math
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "companion" / "web" / "static" / "icons"
#: PNG sizes: Android's two (192, 512) and the iPhone's home-screen icon (180).
SIZES = (192, 512, 180)
COLOURS = ["#d32f2f", "#1f5fbf", "#2e8b3a", "#e6b800", "#7b4a25"]


def sector(r1: float, r2: float, a1: float, a2: float) -> str:
    """Return the SVG path of the ring sector between radii r1 < r2, angles a1 < a2."""

    def point(radius: float, degrees: float) -> str:
        angle = math.radians(degrees)
        return f"{256 + radius * math.sin(angle):.1f} {256 - radius * math.cos(angle):.1f}"

    return (
        f"M{point(r2, a1)}A{r2} {r2} 0 0 1 {point(r2, a2)}"
        f"L{point(r1, a2)}A{r1} {r1} 0 0 0 {point(r1, a1)}Z"
    )


def icon_svg() -> str:
    """Return the icon as SVG text (512x512, a dark rounded square, safe for masking)."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
        "<title>Mandala Companion</title>",
        '<rect width="512" height="512" rx="96" fill="#23201b"/>',
    ]
    outer_radius, inner_radius = 200.0, 66.0
    width = (outer_radius - inner_radius) / len(COLOURS)
    for number, colour in enumerate(COLOURS):
        outer = outer_radius - number * width
        inner = outer - width + 4
        parts.append(
            f'<circle cx="256" cy="256" r="{(outer + inner) / 2:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="{outer - inner:.1f}"/>'
        )
        gap = 20 + 6 * number
        parts.append(
            f'<path d="{sector(inner - 0.5, outer + 0.5, -gap / 2, gap / 2)}" fill="#111"/>'
        )
    parts.append(f'<circle cx="256" cy="256" r="{inner_radius - 6:.0f}" fill="#f4e9c8"/>')
    parts.append(
        '<path d="M256 212l11 31h33l-27 19 10 31-27-19-27 19 10-31-27-19h33z" fill="#b08400"/>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    from playwright.sync_api import sync_playwright

    ICONS.mkdir(parents=True, exist_ok=True)
    svg = icon_svg()
    (ICONS / "icon.svg").write_text(svg)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()
    print(f"icons: wrote icon.svg and {', '.join(f'icon-{s}.png' for s in SIZES)} in {ICONS}")


if __name__ == "__main__":
    main()
