"""``python -m engine``: selfplay statistics and the legal-actions listing of a position file."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Action, Game, RuleSet
from engine.__main__ import main

POSITION = {
    "preset": "perevodnoy",
    "options": {"players": 3},
    "hands": [["6d", "Ks", "Qs"], ["6h", "8d", "Ac"], ["7s", "8s", "9s"]],
    "trump_card": "Ah",
    "talon": ["Ah", "Kh"],
    "table": [["6c", None]],
    "attacker": 0,
    "defender": 1,
}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_selfplay_prints_rates_that_add_up() -> None:
    code, text = run(
        "selfplay", "--preset", "podkidnoy", "--players", "3", "--games", "20", "--seed", "4"
    )
    assert code == 0
    assert re.search(r"games: 20 in [\d.]+ s = [\d.]+ games/s", text)
    assert re.search(r"mean actions per game: [\d.]+", text)
    fools = [int(m) for m in re.findall(r"seat \d: fool (\d+)", text)]
    draws = int(re.search(r"draws: (\d+)", text).group(1))  # type: ignore[union-attr]
    assert len(fools) == 3 and sum(fools) + draws == 20


def test_selfplay_is_reproducible_from_the_seed() -> None:
    def figures(seed: str) -> list[str]:
        _, text = run("selfplay", "--preset", "perevodnoy", "--games", "15", "--seed", seed)
        return [ln for ln in text.splitlines() if not ln.startswith("games:")]

    assert figures("9") == figures("9")
    assert figures("9") != figures("10")


def test_selfplay_teams_reports_the_losing_team() -> None:
    code, text = run("selfplay", "--preset", "teams-2v2", "--games", "10", "--ai", "easy")
    assert code == 0 and "on the losing team" in text


def test_legal_lists_every_seat(tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(POSITION))
    code, text = run("legal", str(path))
    assert code == 0
    lines = {ln.split(" (")[0]: ln.split(": ", 1)[1] for ln in text.splitlines()[1:]}
    g = Game.from_dict(POSITION)
    for seat in range(3):
        shown = lines[f"seat {seat}"]
        want = [a.notation for a in g.legal_actions(seat)]
        assert (shown.split(", ") if want else ["(waits)"]) == (want or ["(waits)"])
        for move in want:
            assert Action.parse(move, seat) in g.legal_actions(seat)
    assert "transfer 6h" in lines["seat 1"] and "defend 6c/Ac" in lines["seat 1"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not JSON"),
        (json.dumps({**POSITION, "hands": [["6c"], ["6c"], ["7s"]]}), "appears twice"),
        (json.dumps({**POSITION, "hands": [["6c"], ["7s"]]}), "2 hands for 3 players"),
        (json.dumps({**POSITION, "preset": "chess"}), "unknown preset"),
        (json.dumps([1, 2]), "JSON object"),
    ],
)
def test_legal_bad_file_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, text = run("legal", str(path))
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.count("\n") == 1 and message in err and err.startswith("error: ")
    assert "Traceback" not in err


def test_legal_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("legal", "/nonexistent/position.json")
    assert code == 2 and capsys.readouterr().err.startswith("error: ")


@pytest.mark.slow(sample=1)  # a subprocess: in make test, not make check
def test_module_runs_as_a_subprocess(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"hands": [["6c"], ["6c"]], "trump": "h"}')
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "legal", str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().startswith("error:") and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "selfplay", "--games", "3", "--players", "4"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert proc.returncode == 0 and "games/s" in proc.stdout


def test_docs_examples_load_and_match_the_printed_listing(tmp_path: Path) -> None:
    """docs/positions.md stays true: its JSON examples load and its listing is what we print."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "positions.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        Game.from_dict(json.loads(block))
    listing = re.search(r"```text\n\$ python -m engine legal \S+\n(.*?)```", doc, re.S)
    assert listing is not None
    path = tmp_path / "example.json"
    path.write_text(blocks[1])
    code, text = run("legal", str(path))
    assert code == 0 and text == listing.group(1)


def test_docs_rules_md_is_the_generated_reference() -> None:
    """docs/rules.md is `python -m engine rules`: regenerate it when an option changes."""
    code, text = run("rules")
    assert code == 0
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text == doc
    for name, *_ in RuleSet.describe_options():
        assert f"### `{name}`" in doc
