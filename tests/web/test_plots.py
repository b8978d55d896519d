"""The logbook's plots: a win rate over time and a score distribution, as accessible SVG.

Figures worked out by hand: wins W, L, W, W give win rates 100%, 50%, 67%, 75%; in the view
box the y axis runs from 150 (0%) to 14 (100%), x from 40 to 308, so the line passes
(40, 14), (129.3, 82), (218.7, 59.3), (308, 48). Scores 3, 5, 5, 7 make one bar per score
from 3 to 7 (counts 1, 0, 2, 0, 1); scores 0..40 make eleven ranges of four (the last "40").
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import unescape

from flask.testing import FlaskClient

from companion.table import Table
from companion.web import plots
from tests.web.test_exports_api import imported

SVG = "{http://www.w3.org/2000/svg}"
DAY = 86_400.0
START = 1_795_890_600.0  # 2026-11-28T18:30:00Z


def parsed(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    title, desc = root.find(SVG + "title"), root.find(SVG + "desc")
    assert title is not None and desc is not None
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert "style=" not in markup  # the panel's content security policy allows none
    return root


def texts(root: ET.Element) -> list[str]:
    return [node.text or "" for node in root.iter(SVG + "text")]


def test_the_win_rate_line_passes_each_plays_rate_and_says_it_in_words() -> None:
    plays = [(START + i * DAY, won) for i, won in enumerate([True, False, True, True])]
    root = parsed(plots.win_rate("rate", "Ann", plays))
    assert root.findtext(SVG + "title") == "Ann's win rate over time"
    assert root.findtext(SVG + "desc") == (
        "Ann has won 3 plays of 4: 75% now (highest 100%), from 28 Nov 2026 to 1 Dec 2026."
    )
    line = root.find(SVG + "polyline")
    assert line is not None
    assert line.get("points") == "40.0,14.0 129.3,82.0 218.7,59.3 308.0,48.0"
    shown = texts(root)
    assert {"0%", "25%", "50%", "75%", "100%", "28 Nov 2026", "1 Dec 2026"} <= set(shown)
    assert "75%" in shown[5:] and "after each of 4 plays" in shown  # the value at the end


def test_a_long_history_is_drawn_through_at_most_160_points_first_and_last_kept() -> None:
    plays = [(START + i * 3600, i % 3 == 0) for i in range(5000)]
    line = parsed(plots.win_rate("rate", "Bo", plays)).find(SVG + "polyline")
    assert line is not None
    points = line.get("points", "").split()
    assert len(points) == 160
    assert points[0] == "40.0,14.0"  # won the first: 100%
    assert points[-1] == f"308.0,{150 - 136 * 1667 / 5000:.1f}"


def test_the_score_distribution_has_a_bar_per_score_with_its_count_written() -> None:
    root = parsed(plots.score_distribution("dist", "Ann", [3, 5, 5, 7]))
    assert root.findtext(SVG + "desc") == (
        "Ann's scores: 4 plays, from 3 to 7, most often 5 (2 plays); mean 5.0."
    )
    heights = [float(bar.get("height", "0")) for bar in root.iter(SVG + "rect")]
    assert len(heights) == 5
    assert heights[0] == heights[4] == heights[2] / 2 and heights[1] == heights[3] == 0
    shown = texts(root)
    assert [t for t in shown if t in {"3", "4", "5", "6", "7"}] == ["3", "4", "5", "6", "7"]
    assert shown.count("1") == 2 and shown.count("2") == 1  # counts above the bars


def test_many_distinct_scores_are_grouped_in_equal_ranges() -> None:
    assert plots.bins(dict.fromkeys(range(41), 1)) == [
        *[(start, start + 3, 4) for start in range(0, 40, 4)],
        (40, 40, 1),
    ]
    root = parsed(plots.score_distribution("dist", "Cy", list(range(41))))
    assert {"0-3", "36-39", "40"} <= set(texts(root))


def test_a_name_with_markup_stays_text_in_the_plot() -> None:
    markup = plots.win_rate("rate", "<b>Zoë & Jo</b>", [(START, True)])
    root = parsed(markup)
    assert root.findtext(SVG + "title") == "<b>Zoë & Jo</b>'s win rate over time"
    assert "<b>" not in markup


def test_no_plays_yet_is_said_in_words() -> None:
    root = parsed(plots.win_rate("rate", "Ann", []))
    assert root.findtext(SVG + "desc") == "Ann has no finished plays yet."
    root = parsed(plots.score_distribution("dist", "Ann", []))
    assert root.findtext(SVG + "desc") == "Ann has no scores yet."


def test_the_plots_are_not_imported_at_start_up() -> None:
    probe = (
        "import sys, companion.serve, companion.cli\n"
        "from companion.web import create_app\n"
        "print('companion.web.plots' in sys.modules)"
    )
    printed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.strip() == "False"


def test_a_players_page_shows_their_win_rate_and_their_scores_per_game(
    client: FlaskClient, table: Table, owner: str
) -> None:
    for name in (
        "stones-06-objectives-tie",
        "cards-t2-cups-decide",
        "rings-08-win-by-centre-entry",
    ):
        imported(client, name)
    bo = next(player for player in table.logbook.players() if player.name == "Bo")
    page = client.get(f"/players/{bo.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    found = [
        (plot_id, unescape(desc))
        for plot_id, desc in re.findall(r'<desc id="([^"]+)-desc">([^<]*)</desc>', html)
    ]
    assert [plot_id for plot_id, _ in found] == [
        "plot-win-rate",
        "plot-scores-stones",
        "plot-scores-cards",
        "plot-scores-rings",
    ]
    assert found[0][1].startswith("Bo has won 0 plays of 3: 0% now (highest 0%)")
    assert found[1][1] == (
        "Bo's scores at Mandala Stones: 1 play, from 5 to 5, most often 5 (1 play); mean 5.0."
    )
    assert 'href="/static/plots.css"' in html


def test_the_historys_first_page_shows_everyones_scores_per_game(
    client: FlaskClient, owner: str
) -> None:
    for name in ("stones-06-objectives-tie", "cards-t2-cups-decide", "stones-06-objectives-tie"):
        imported(client, name)
    html = client.get("/history").get_data(as_text=True)
    found = [
        (plot_id, unescape(desc))
        for plot_id, desc in re.findall(r'<desc id="([^"]+)-desc">([^<]*)</desc>', html)
    ]
    assert found == [
        (
            "plot-everyone-stones",
            "Everyone's scores at Mandala Stones: 4 scores, from 5 to 5, most often 5 (4 scores);"
            " mean 5.0.",
        ),
        (
            "plot-everyone-cards",
            "Everyone's scores at Mandala card game: 2 scores, from 1 to 7, most often 1 (1 score);"
            " mean 4.0.",
        ),
    ]
    assert "<desc" not in client.get("/history?page=2").get_data(as_text=True)


def test_the_historys_score_counts_follow_a_play_finished_and_a_game_deleted(
    client: FlaskClient, owner: str
) -> None:
    def stones_desc() -> str:
        html = client.get("/history").get_data(as_text=True)
        found = re.search(r'<desc id="plot-everyone-stones-desc">([^<]*)</desc>', html)
        return unescape(found.group(1)) if found else ""

    first = imported(client, "stones-06-objectives-tie")
    assert stones_desc().startswith("Everyone's scores at Mandala Stones: 2 scores,")
    imported(client, "stones-06-objectives-tie")
    assert stones_desc().startswith("Everyone's scores at Mandala Stones: 4 scores,")
    assert client.delete(f"/api/games/{first}").status_code == 200
    assert stones_desc().startswith("Everyone's scores at Mandala Stones: 2 scores,")


def test_range_labels_shrink_until_they_fit_beside_each_other() -> None:
    # 12..27: eight ranges of two ("12-13"), 33.5 units each: at 12 units they ran together
    root = parsed(plots.score_distribution("dist", "Cy", list(range(12, 28))))
    ranges = [node for node in root.iter(SVG + "text") if re.fullmatch(r"\d+-\d+", node.text or "")]
    assert len(ranges) == 8
    assert {node.get("font-size") for node in ranges} == {"10"}
    single = parsed(plots.score_distribution("dist", "Cy", [3, 4, 5]))
    assert all(node.get("font-size") is None for node in single.iter(SVG + "text"))
