"""The logbook's plots as small inline SVG: a win rate over time and a score distribution.

Drawn on the box by hand (standard library only, no chart library, no script, no CDN):
measured against ``pygal`` with 5,000 plays (``bench/plots.py``), this is several times
faster to draw and imports in a fraction of the time and memory, which matters on a Pi
Zero 2. The pages import this module only when they draw a plot, never at start-up.

Every plot is a ``role="img"`` SVG whose ``<title>`` and ``<desc>`` say what it shows in
words (the figures a reader would look for), with text labels on its axes and its values:
nothing is told by colour alone. Its words are phrases rendered by the caller's ``words``
(English by default), its dates by the caller's ``date``. Colours are the panel's own
(``static/plots.css``, so the plot follows the light or dark setting), with the light ones as
attributes for a plot seen on its own.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from html import escape

from companion.phrases import Phrase, say, say_n

Words = Callable[[Phrase], str]
"""Renders a phrase in the page's language (the pages pass ``companion.web.i18n.words``)."""
Day = Callable[[float], str]
"""Writes a date in the page's language."""

WIDTH, HEIGHT = 320, 190
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 150
"""The drawing area inside the view box (x from LEFT to WIDTH-RIGHT, y from TOP to BOTTOM)."""
MAX_POINTS = 160
"""The most points a line is drawn through (a long history is sampled evenly, the last kept)."""
MAX_BARS = 12
"""The most bars a distribution has (more distinct scores are grouped in equal ranges)."""

TEXT = 'class="text" fill="#1d1d1b"'
MUTED = 'class="muted" fill="#66625a"'
GRID = 'class="grid" stroke="#d8d3c8" stroke-width="1"'
LINE = 'class="line" stroke="#2454a6" stroke-width="2.5" fill="none"'
BAR = 'class="bar" fill="#2454a6"'
"""Each shape's class (``static/plots.css`` gives the panel's colours, light or dark) and,
for a plot seen on its own, the light colours as attributes; no ``style`` attribute (the
panel's content security policy allows none)."""


def counted(count: int, unit: str) -> Phrase:
    """``"1 play"``, ``"5,000 plays"`` (``unit``: ``"play"`` or ``"score"``)."""
    if unit == "score":
        found = say_n("{count} score", "{count} scores", count)
    else:
        found = say_n("{count} play", "{count} plays", count)
    return replace(found, values={"count": f"{count:,}"})  # shown with thousands' commas


def english(phrase: Phrase) -> str:
    """A phrase in English (the default ``words``)."""
    return phrase.english()


def day(stamp: float) -> str:
    """A date as people read it, in the box's local time: ``"28 Nov 2026"``."""
    return time.strftime("%d %b %Y", time.localtime(stamp)).lstrip("0")


def svg(plot_id: str, title: str, desc: str, body: list[str]) -> str:
    """Wrap a plot's shapes in an accessible SVG element (``plot_id`` names its parts)."""
    return (
        f'<svg class="plot" id="{escape(plot_id)}" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'aria-labelledby="{escape(plot_id)}-title {escape(plot_id)}-desc" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="12" '
        'font-family="system-ui, sans-serif">'
        f'<title id="{escape(plot_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(plot_id)}-desc">{escape(desc)}</desc>' + "".join(body) + "</svg>"
    )


def label(
    x: float, y: float, text: str, anchor: str = "middle", paint: str = TEXT, *, size: int = 0
) -> str:
    """A text label at ``(x, y)`` (``size``: its font size, when not the plot's)."""
    font = f' font-size="{size}"' if size else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{font} {paint}>{escape(text)}</text>'
    )


def fitting_size(longest: int, room: float) -> int:
    """The font size (12 down to 8) at which ``longest`` characters fit in ``room`` units: a
    digit is about 0.6 of the font size wide."""
    size = 12
    while size > 8 and 0.6 * size * longest > room:
        size -= 1
    return size


def sampled(count: int) -> list[int]:
    """At most :data:`MAX_POINTS` indices of ``count`` evenly spread, the first and last kept."""
    if count <= MAX_POINTS:
        return list(range(count))
    step = (count - 1) / (MAX_POINTS - 1)
    return sorted({round(i * step) for i in range(MAX_POINTS)})


def win_rate(
    plot_id: str,
    who: str,
    plays: Sequence[tuple[float, bool]],
    *,
    words: Words = english,
    date: Day = day,
) -> str:
    """``who``'s win rate after each of their plays, as a line from 0 to 100%.

    ``plays`` are (when the play ended, whether they won) oldest first; a shared win (a
    tie) counts as a win.
    """
    title = words(say("{who}'s win rate over time", who=who))
    if not plays:
        return svg(plot_id, title, words(say("{who} has no finished plays yet.", who=who)), [])
    wins = 0
    rates: list[float] = []
    for played, (_, won) in enumerate(plays, start=1):
        wins += won
        rates.append(wins / played)
    width, height = WIDTH - LEFT - RIGHT, BOTTOM - TOP
    body: list[str] = []
    for percent in (0, 25, 50, 75, 100):
        y = BOTTOM - height * percent / 100
        body.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                    f'{GRID}/>')  # fmt: skip
        body.append(label(LEFT - 4, y + 4, f"{percent}%", "end", MUTED))
    last = len(rates) - 1
    points = []
    for index in sampled(len(rates)):
        x = LEFT + (width * index / last if last else width / 2)
        points.append(f"{x:.1f},{BOTTOM - height * rates[index]:.1f}")
    body.append(f'<polyline points="{" ".join(points)}" {LINE}/>')
    end_x, end_y = points[-1].split(",")
    body.append(f'<circle cx="{end_x}" cy="{end_y}" r="4" {BAR}/>')
    now = round(rates[-1] * 100)
    above = float(end_y) - 8 if float(end_y) > TOP + 16 else float(end_y) + 16  # off the line
    body.append(label(float(end_x) - 6, above, f"{now}%", "end"))
    first, last_day = date(plays[0][0]), date(plays[-1][0])
    body.append(label(LEFT, BOTTOM + 16, first, "start", MUTED))
    body.append(label(WIDTH - RIGHT, BOTTOM + 16, last_day, "end", MUTED))
    after = say("after each of {plays}", plays=counted(len(plays), "play"))
    body.append(label((LEFT + WIDTH - RIGHT) / 2, BOTTOM + 34, words(after)))
    best = max(rates)
    desc = words(
        say(
            "{who} has won {wins} of {all}: {now}% now (highest {best}%), from {first} to {last}.",
            who=who,
            wins=counted(wins, "play"),
            all=f"{len(plays):,}",
            now=now,
            best=round(best * 100),
            first=first,
            last=last_day,
        )
    )
    return svg(plot_id, title, desc, body)


def bins(counts: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """The bars of a distribution of ``counts`` (score to how often): (lowest score, highest
    score, how often), in order.

    One bar per score while there are at most :data:`MAX_BARS` from the lowest to the
    highest; otherwise :data:`MAX_BARS` equal ranges (the last may be shorter).
    """
    low, high = min(counts), max(counts)
    size = max(1, -(-(high - low + 1) // MAX_BARS))
    bars = []
    for start in range(low, high + 1, size):
        end = min(start + size - 1, high)
        bars.append((start, end, sum(counts.get(score, 0) for score in range(start, end + 1))))
    return bars


def score_distribution(
    plot_id: str,
    who: str,
    scores: Sequence[int] | Mapping[int, int],
    game: str = "",
    unit: str = "play",
    *,
    words: Words = english,
) -> str:
    """How often ``who`` scored what (at ``game``, when named): a bar per score (or range),
    its count written on it. ``scores`` are the scores, or each score with how often it
    came; ``unit`` is what one of them is (a player's "play", everyone's "score")."""
    if game:
        title = words(say("{who}'s scores at {game}", who=who, game=game))
    else:
        title = words(say("{who}'s scores", who=who))
    counts = dict(scores) if isinstance(scores, Mapping) else Counter(scores)
    counts = {score: count for score, count in counts.items() if count > 0}
    if not counts:
        return svg(plot_id, title, words(say("{who} has no scores yet.", who=who)), [])
    total = sum(counts.values())
    bars = bins(counts)
    most = max(count for _, _, count in bars)
    width, height = WIDTH - LEFT - RIGHT, BOTTOM - TOP - 12
    slot = width / len(bars)
    body = [f'<line x1="{LEFT}" y1="{BOTTOM}" x2="{WIDTH - RIGHT}" y2="{BOTTOM}" '
            f'{GRID}/>']  # fmt: skip
    names = [str(start) if start == end else f"{start}-{end}" for start, end, _ in bars]
    # ranges ("12-13") side by side ran into each other at 12 units: they shrink to fit
    size = fitting_size(max(len(name) for name in names), slot - 3)
    for number, (_, _, count) in enumerate(bars):
        x = LEFT + slot * number
        tall = height * count / most
        body.append(f'<rect x="{x + slot * 0.12:.1f}" y="{BOTTOM - tall:.1f}" '
                    f'width="{slot * 0.76:.1f}" height="{tall:.1f}" {BAR}/>')  # fmt: skip
        if count:
            body.append(label(x + slot / 2, BOTTOM - tall - 3, f"{count:,}"))
        body.append(
            label(
                x + slot / 2,
                BOTTOM + 14,
                names[number],
                "middle",
                MUTED,
                size=0 if size == 12 else size,
            )
        )
    if unit == "score":
        caption = say("score; the bars count scores ({total})", total=f"{total:,}")
    else:
        caption = say("score; the bars count plays ({total})", total=f"{total:,}")
    body.append(label((LEFT + WIDTH - RIGHT) / 2, BOTTOM + 34, words(caption)))
    top = max(bars, key=lambda bar: bar[2])
    often: str | Phrase = str(top[0])
    if top[0] != top[1]:
        often = say("{low} to {high}", low=top[0], high=top[1])
    mean = sum(score * count for score, count in counts.items()) / total
    desc = words(
        say(
            "{title}: {count}, from {low} to {high}, most often {often} ({top}); mean {mean}.",
            title=title,
            count=counted(total, unit),
            low=min(counts),
            high=max(counts),
            often=often,
            top=counted(top[2], unit),
            mean=f"{mean:.1f}",
        )
    )
    return svg(plot_id, title, desc, body)
