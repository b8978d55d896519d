"""The logbook's plots on the pages: :func:`player_plots` and :func:`history_plots`, template
globals.

A player's page (``_logbook_plots.html``) shows their win rate over time across every kind
and, per kind they played, their score distribution (scores of different games do not mix);
the history's first page (``_history_plots.html``) everyone's scores per kind.
The plot module (``companion.web.plots``) is imported on the first page that draws one,
never at start-up.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import format_date
from flask import Blueprint
from markupsafe import Markup

from companion.phrases import say
from companion.table.adapters import adapter
from companion.web.api_logbook import logbook
from companion.web.i18n import language, words

blueprint = Blueprint("plot_views", __name__)


def day(stamp: float) -> str:
    """A plot's date in the page's language: ``2 Dec 2026``, ``2 Dez. 2026``."""
    return format_date(datetime.fromtimestamp(stamp), "d MMM y", locale=language())


@blueprint.app_template_global()
def player_plots(player_id: int, name: str) -> list[dict[str, Any]]:
    """``[{"id", "heading", "svg"}]``: the win rate over time, then a score distribution
    per kind (in the order first played); empty before their first finished play."""
    from companion.web import plots

    points = logbook().series(player_id)
    if not points:
        return []
    shown = [
        {
            "id": "plot-win-rate",
            "heading": words(say("Win rate over time")),
            "svg": Markup(
                plots.win_rate(
                    "plot-win-rate",
                    name,
                    [(p.ended, p.won) for p in points],
                    words=words,
                    date=day,
                )
            ),
        }
    ]
    kinds = list(dict.fromkeys(point.kind for point in points))
    for kind in kinds:
        plot_id = f"plot-scores-{kind}"
        title = words(adapter(kind).title_words)
        scores = [point.score for point in points if point.kind == kind]
        svg = plots.score_distribution(plot_id, name, scores, title, words=words)
        heading = words(say("Scores: {game}", game=title))
        shown.append({"id": plot_id, "heading": heading, "svg": Markup(svg)})
    return shown


@blueprint.app_template_global()
def history_plots() -> list[dict[str, Any]]:
    """``[{"id", "heading", "svg"}]``: everyone's score distribution per kind played."""
    from companion.web import plots

    shown = []
    for kind, counts in logbook().kind_scores().items():
        plot_id = f"plot-everyone-{kind}"
        title = words(adapter(kind).title_words)
        # TRANSLATORS: who the history's plots are of, as in "{who}'s scores at {game}"
        everyone = words(say("Everyone"))
        svg = plots.score_distribution(plot_id, everyone, counts, title, unit="score", words=words)
        heading = words(say("Scores: {game}", game=title))
        shown.append({"id": plot_id, "heading": heading, "svg": Markup(svg)})
    return shown
