"""The Pi's speaker (issue 25): the table's announcements spoken by the real ``espeak-ng``.

A real Table on a real SQLite file and its hub; the speaker reads one real stream and runs
the real program, which writes each sentence to a WAV file (``espeak-ng -w``) instead of the
sound card. The queue's rules with a clock the test moves.
"""

from __future__ import annotations

import json
import wave
from pathlib import Path
from typing import Any

import pytest

from companion.catalogue import render
from companion.config import SpeechOptions, options_from_mapping
from companion.doctor.panel import PanelDoctor
from companion.games.base import RecordError
from companion.speaker import SayQueue, Speaker
from companion.table import Table
from tests.conftest import SPEC_EXAMPLES
from tests.table.conftest import wait_for

ICEHOUSE = json.loads((SPEC_EXAMPLES / "icehouse-01-eye-after-a-pick.record.json").read_text())


def item(game: str, topic: str, text: str) -> dict[str, Any]:
    return {"type": "say", "game": game, "topic": topic, "phrases": [{"text": text, "values": {}}]}


def speak_the_last_pick(tmp_path: Path, language: str) -> tuple[Speaker, Path]:
    """The Icehouse example's last pick taken with a speaker in ``language`` listening, until
    its three sentences are WAV files (in the folder returned) and the queue is idle."""
    record = {**ICEHOUSE, "picks": ICEHOUSE["picks"][:-1]}
    wavs = tmp_path / "said"
    wavs.mkdir()
    with Table(tmp_path / "data") as table:
        game = table.create_game({"record": record})
        speaker = Speaker(table.subscribe(), SpeechOptions(speaker=True), language, write_to=wavs)
        speaker.start()
        try:
            table.act(game["id"], game["version"], {"pick": ICEHOUSE["picks"][-1]})
            wait_for(lambda: len(list(wavs.glob("*.wav"))) == 3 and speaker.queue.idle(), 30.0)
        finally:
            speaker.close()
    return speaker, wavs


def test_espeak_ng_speaks_a_picks_announcements_in_order_each_to_a_wav_file(
    tmp_path: Path,
) -> None:
    speaker, wavs = speak_the_last_pick(tmp_path, "en")
    assert speaker.spoken == ["Bo takes a large blue", "4 pieces fall into the Eye", "Cy's turn"]
    for number in (1, 2, 3):
        with wave.open(str(wavs / f"said-{number}.wav")) as sound:
            assert sound.getnframes() > sound.getframerate() // 4  # over a quarter second
    assert speaker.check() == (
        "ok",
        "espeak-ng speaks the announcements (voice en, 160 words a minute)",
    )
    assert speaker.problem is None


def test_a_box_set_to_german_speaks_the_pick_in_german_with_the_german_voice(
    tmp_path: Path,
) -> None:
    speaker, wavs = speak_the_last_pick(tmp_path, "de")
    assert speaker.spoken == [
        "Bo nimmt eine Pyramide: Blau, groß",
        "4 Pyramiden fallen ins Auge",
        "Cy ist am Zug",
    ]
    with wave.open(str(wavs / "said-1.wav")) as sound:
        assert sound.getnframes() > sound.getframerate() // 4  # over a quarter second
    assert speaker.check() == (
        "ok",
        "espeak-ng speaks the announcements (voice de, 160 words a minute)",
    )
    assert speaker.problem is None


def test_a_missing_espeak_ng_is_a_health_line_and_the_table_goes_on(tmp_path: Path) -> None:
    with Table(tmp_path / "data") as table:
        game = table.create_game({"record": {**ICEHOUSE, "picks": []}})
        speaker = Speaker(table.subscribe(), SpeechOptions(speaker=True), program="no-espeak-here")
        speaker.start()
        try:
            table.act(game["id"], game["version"], {"pick": 4})
            wait_for(lambda: speaker.problem, 30.0)
            assert table.get_game(game["id"])["version"] == game["version"] + 1
            doctor = PanelDoctor(speaker=speaker)
            line = doctor.speaker_checks()[0].to_json()
        finally:
            speaker.close()
    assert line == {
        "name": "speaker",
        "status": "warn",
        "message": "[speech] speaker is on but no-espeak-here is not installed: "
        "sudo apt-get install espeak-ng",
    }
    assert speaker.spoken == []


def test_a_newer_announcement_of_a_topic_replaces_a_waiting_one_but_events_all_wait() -> None:
    queue = SayQueue()
    queue.put(item("g", "turn", "Ann's turn"), 0.0)
    queue.put(item("g", "events", "Ann snipes Bo on spoke 2"), 0.0)
    queue.put(item("g", "events", "Ann has 1 point"), 0.0)
    queue.put(item("h", "turn", "Cy's turn"), 0.0)  # another game's turn stays
    queue.put(item("g", "turn", "Bo's turn"), 1.0)
    texts = []
    while (found := queue.take(lambda: 2.0, timeout=0)) is not None:
        texts.append(found["phrases"][0]["text"])
    assert texts == ["Ann snipes Bo on spoke 2", "Ann has 1 point", "Cy's turn", "Bo's turn"]


def test_an_announcement_that_waited_over_30_s_is_dropped_unspoken() -> None:
    queue = SayQueue()
    queue.put(item("g", "events", "Ann snipes Bo on spoke 2"), 0.0)
    queue.put(item("g", "events", "Bo has 1 point"), 20.0)
    found = queue.take(lambda: 40.0, timeout=0)
    assert found is not None and found["phrases"][0]["text"] == "Bo has 1 point"
    assert queue.take(lambda: 40.0, timeout=0) is None


def test_the_config_reads_the_speech_table_and_refuses_what_espeak_cannot_take() -> None:
    found = options_from_mapping(
        {"speech": {"speaker": True, "voice": "en-gb", "rate": 140}}, Path()
    )
    assert found.speech == SpeechOptions(speaker=True, voice="en-gb", rate=140)
    assert options_from_mapping({}, Path()).speech.speaker is False  # off unless asked
    with pytest.raises(RecordError, match=r"speech.loud: unknown key"):
        options_from_mapping({"speech": {"loud": True}}, Path())
    with pytest.raises(RecordError, match=r"speech.voice: '-w /tmp/x' is not an espeak-ng voice"):
        options_from_mapping({"speech": {"voice": "-w /tmp/x"}}, Path())
    with pytest.raises(RecordError, match=r"speech.rate"):
        options_from_mapping({"speech": {"rate": 5}}, Path())


def test_mandala_serve_with_the_speaker_on_shows_its_line_on_the_health_page(
    tmp_path: Path,
) -> None:
    import re
    import subprocess
    import sys
    import urllib.request

    config = tmp_path / "config.toml"
    config.write_text('emulate = true\nport = 0\n[speech]\nspeaker = true\nvoice = "en-gb"\n')
    mandala = Path(sys.executable).parent / "mandala"
    command = [str(mandala), "serve", "--config", str(config), "--data", str(tmp_path / "d")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = next(
            found.group(1)
            for line in process.stdout
            if (found := re.search(r"open the panel at (http://127\.0\.0\.1:\d+/)", line))
        )
        with urllib.request.urlopen(url + "api/health", timeout=30) as answer:
            checks = json.loads(answer.read())["checks"]
    finally:
        process.terminate()
        assert process.wait(timeout=15) == 0
    assert {
        "name": "speaker",
        "status": "ok",
        "message": "espeak-ng speaks the announcements (voice en-gb, 160 words a minute)",
    } in checks


def test_the_health_pages_speaker_line_is_said_in_german_on_a_german_page(tmp_path: Path) -> None:
    with Table(tmp_path / "data") as table:
        speaking = Speaker(table.subscribe(), SpeechOptions(speaker=True), "de", program="python3")
        missing = Speaker(table.subscribe(), SpeechOptions(speaker=True), program="no-espeak-here")
        status, phrase = speaking.check_words()
        assert status == "ok"
        assert (
            render(phrase, "de") == "python3 spricht die Ansagen (Stimme de, 160 Wörter pro Minute)"
        )
        assert speaking.check() == (
            "ok",
            "python3 speaks the announcements (voice de, 160 words a minute)",
        )
        speaking.problem = "exit status 1"
        assert render(speaking.check_words()[1], "de") == (
            "python3 konnte die letzte Ansage nicht sprechen: exit status 1"
        )
        line = PanelDoctor(speaker=missing).speaker_checks()[0]
        assert line.text(lambda found: render(found, "de")) == (
            "[speech] Lautsprecher ist an, aber no-espeak-here ist nicht installiert: "
            "sudo apt-get install espeak-ng"
        )
        speaking.subscription.close()
        missing.subscription.close()
