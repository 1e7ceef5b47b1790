"""agon.run and agon.tournament return a RunResult: the printed report, the folder, and
its CSV files as tables with numeric columns numeric (summary.csv's words in `text`)."""

import math
from pathlib import Path

import pytest

import agon

ROOT = Path(__file__).resolve().parents[2]


def sprt_match(out: Path) -> agon.RunResult:
    """A short two-agent match with an SPRT, so that summary.csv has both of its words
    (the SPRT's decision and the ratings' anchor)."""
    return agon.tournament(
        "connect4", ["ab:depth=2", "random"], games=4, seed=5, out=str(out), threads=1,
        options=["--sprt", "0,200,0.05,0.05"],
    )


def test_a_tournament_returns_its_report_folder_and_tables(tmp_path):
    out = tmp_path / "match"
    result = sprt_match(out)
    assert isinstance(result, agon.RunResult)
    assert result.folder == out and isinstance(result.folder, Path)
    assert str(result) == result.text
    assert result.text.startswith("connect4: 4 games (4 per pairing), seed 5")
    assert result.text.endswith(f"report.html in {out}\n")
    assert sorted(result.tables) == ["games", "meta", "speed", "summary", "timings"]
    with pytest.raises(KeyError, match=r"no table 'balance' \(tables: games, meta, speed, summary, timings\)"):
        result.tables["balance"]
    # Running it again prints the finished run's summary: the same folder and tables.
    again = sprt_match(out)
    assert again.text.startswith(f"{out} already holds this finished run; its summary:")
    assert again.folder == out and list(again.tables) == list(result.tables)


def test_tables_without_pandas_are_dicts_with_numbers_as_numbers(tmp_path):
    result = agon.RunResult(sprt_match(tmp_path / "match").folder, frame=False)
    summary = result.tables["summary"]
    assert list(summary[0]) == [
        "section", "pairing", "agent_a", "agent_b", "subject", "statistic", "value", "low", "high", "text",
    ]
    assert summary[0] == {
        "section": "pairing", "pairing": 0, "agent_a": "ab:depth=2", "agent_b": "random",
        "subject": "", "statistic": "games", "value": 4.0, "low": None, "high": None, "text": "",
    }
    for row in summary:
        for column in ["value", "low", "high"]:
            assert row[column] is None or isinstance(row[column], float), row
    words = {(r["section"], r["statistic"]): r for r in summary if r["text"]}
    assert sorted(words) == [("rating", "anchor"), ("sprt", "decision")]
    assert words["rating", "anchor"]["text"] == "mean"
    assert words["sprt", "decision"]["text"] in {"H0", "H1", "continue"}
    assert all(r["value"] is None for r in words.values())
    elo1 = next(r for r in summary if r["statistic"] == "elo1")
    assert elo1["value"] == 200.0
    games = result.tables["games"]
    assert [g["game"] for g in games] == [0, 1, 2, 3]
    assert all(isinstance(g["plies"], int) and isinstance(g["digest"], str) for g in games)
    assert all(len(g["digest"]) == 16 for g in games)
    assert all(g["winner"] in (0, 1, None) for g in games)
    meta = {row["key"]: row["value"] for row in result.tables["meta"]}
    # meta.csv's values are words and numbers alike: the column stays text.
    assert meta["game"] == "connect4" and meta["seed"] == "5"
    timings = result.tables["timings"]
    assert all(isinstance(t["time_us0"], int) for t in timings)


def test_tables_with_pandas_are_data_frames_with_numeric_columns(tmp_path):
    pandas = pytest.importorskip("pandas")
    result = sprt_match(tmp_path / "match")
    summary = result.tables["summary"]
    assert isinstance(summary, pandas.DataFrame)
    for column in ["value", "low", "high"]:
        assert summary[column].dtype == float, column
    assert summary["text"].dtype == object
    ratings = summary[(summary.section == "rating") & (summary.statistic == "elo")]
    assert list(ratings.subject) == ["ab:depth=2", "random"]
    assert math.isclose(ratings.value.sum(), 0.0, abs_tol=0.2)  # a mean of zero
    anchor = summary[summary.statistic == "anchor"].iloc[0]
    assert anchor.text == "mean" and math.isnan(anchor.value)
    games = result.tables["games"]
    assert games["game"].dtype == "int64" and games["digest"].dtype == object
    assert list(games["game"]) == [0, 1, 2, 3]
    # The same numbers as the list of dicts.
    rows = agon.read_table(result.folder / "summary.csv", frame=False)
    assert [r["value"] for r in rows if r["value"] is not None] == list(summary.value.dropna())


def test_an_older_summary_csv_is_read_in_todays_layout(tmp_path):
    # A committed run, written before summary.csv had its `text` column.
    old = ROOT / "results" / "confirm-apv" / "summary.csv"
    assert old.read_text().splitlines()[0] == "section,pairing,agent_a,agent_b,subject,statistic,value,low,high"
    rows = agon.read_table(old, frame=False)
    assert list(rows[0])[-1] == "text"
    decision = next(r for r in rows if r["statistic"] == "decision")
    anchor = next(r for r in rows if r["statistic"] == "anchor")
    assert (decision["value"], decision["text"]) == (None, "H1")
    assert (anchor["value"], anchor["text"]) == (None, "mean")
    assert all(r["value"] is None or isinstance(r["value"], float) for r in rows)
    assert sum(1 for r in rows if r["text"]) == 2


def test_commands_without_a_folder_return_their_text_only():
    listing = agon.run(["games"])
    assert listing.folder is None and len(listing.tables) == 0
    assert listing.text.startswith("invector: ")
    perft = agon.run(["perft", "--game", "connect4", "--depth", "2"])
    assert perft.text.startswith("perft 1 7\nperft 2 49\n") and perft.folder is None
    assert repr(perft) == "RunResult(folder=None, tables=[])"


def test_help_and_version_return_the_text_the_command_line_prints():
    version = agon.run(["--version"])
    assert version.text == "agon 0.1.0\n" and version.folder is None
    top = agon.run(["--help"]).text
    assert top.startswith("agon: the command-line tool") and "\nUsage: agon [COMMAND]\n" in top
    assert "\x1b[" not in top  # no terminal colours
    tournament = agon.run(["tournament", "--help"]).text
    assert "Usage: agon tournament [OPTIONS] --game <GAME> --agents <AGENT>... --out <DIR>" in tournament
    with pytest.raises(agon.AgonError, match="^unexpected argument '--nope' found"):
        agon.run(["--nope"])


def test_a_study_returns_its_own_tables_and_each_run_is_a_result(tmp_path):
    out = tmp_path / "study"
    study = agon.run(["balance", "--game", "pig:target=20", "--agents", "random", "greedy",
                      "--games", "4", "--out", str(out), "--threads", "1"])
    assert study.folder == out
    assert {"study", "balance"} <= set(study.tables)
    balance = study.tables["balance"]
    rows = balance.to_dict("records") if hasattr(balance, "to_dict") else balance
    assert all(r["value"] is None or isinstance(r["value"], (int, float)) or math.isnan(r["value"]) for r in rows)
    plan = agon.run(["balance", "--game", "pig:target=20", "--agents", "random", "greedy",
                     "--games", "4", "--out", str(out), "--plan"])
    assert plan.folder is None
    run_folders = sorted(p for p in out.rglob("meta.csv"))
    assert run_folders, "the study has runs"
    one = agon.RunResult(run_folders[0].parent, frame=False)
    assert len(one.tables["games"]) == 4
