"""manage.py paper_from_deals: deal logs in, the library's paper out, as issue 27 point 7 says."""

import io
import json

import pytest
from django.core.management import CommandError

from tests.algorithms.paper_reference import library_result, paper_vectors
from tests.builders import run_command

ISSUE_EXAMPLE = (
    '[{"bula": 30, "refas": 2, "hands": [{"refa": true}, {"value": 4, "declarer": {"seat": 1, '
    '"failed": false}, "followers": [{"seat": 2, "followed": true, "tricks": 2, "failed": '
    'false}, {"seat": 3, "followed": false, "tricks": 0, "failed": false}], "repealed": false}]}]'
)


def test_it_prints_the_paper_of_the_issues_example(tmp_path):
    path = tmp_path / "logs.json"
    path.write_text(ISSUE_EXAMPLE)
    triangle = {"left": 0, "middle": 0, "right": 0}
    assert json.loads(run_command("paper_from_deals", str(path))) == [
        {
            "seats": [
                {
                    "seat": 1,
                    "left": 0,
                    "middle": 26,
                    "right": 0,
                    "final": 268,
                    "paper": {
                        "left": [],
                        "middle": [30, {"left": 0, "middle": 1, "right": 0}, 26],
                        "right": [],
                    },
                },
                {
                    "seat": 2,
                    "left": 8,
                    "middle": 30,
                    "right": 0,
                    "final": 292,
                    "paper": {"left": [8], "middle": [30, triangle], "right": []},
                },
                {
                    "seat": 3,
                    "left": 0,
                    "middle": 30,
                    "right": 0,
                    "final": 300,
                    "paper": {"left": [], "middle": [30, triangle], "right": []},
                },
            ]
        }
    ]


def test_it_reads_standard_input_for_a_dash(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(ISSUE_EXAMPLE))
    assert json.loads(run_command("paper_from_deals", "-"))[0]["seats"][0]["middle"] == 26


def test_it_gives_an_error_naming_the_hand_and_goes_on_with_the_next_log(tmp_path):
    refused = {"bula": 30, "refas": 0, "hands": [{"refa": True}]}
    path = tmp_path / "logs.json"
    path.write_text(json.dumps([refused, json.loads(ISSUE_EXAMPLE)[0], "not a log"]))
    results = json.loads(run_command("paper_from_deals", str(path)))
    assert results[0] == {"error": "hand 1: no more refe, the cap is 0"}
    assert "seats" in results[1]
    assert results[2] == {"error": "a deal log must be an object with bula, refas and hands"}


def test_it_gives_the_librarys_paper_for_the_vectors_entry_for_entry(tmp_path):
    rows = [row for rows in paper_vectors()["groups"].values() for row in rows[:150]]
    path = tmp_path / "logs.json"
    path.write_text(json.dumps([log for log, _ in rows]))
    results = json.loads(run_command("paper_from_deals", str(path)))
    assert len(results) == len(rows)
    for (log, answer), result in zip(rows, results, strict=True):
        expected = library_result(answer.get("zero_tricks_no_supa", answer))
        if "error" in expected:
            assert "error" in result, log
            continue
        for seat in result["seats"]:
            del seat["final"]
        assert result == expected, log


@pytest.mark.parametrize(
    ("text", "message"),
    [("{not json", "not JSON"), ('{"bula": 30}', "expected a JSON list of deal logs")],
)
def test_it_refuses_a_file_that_is_not_a_list_of_logs(tmp_path, text, message):
    path = tmp_path / "logs.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=message):
        run_command("paper_from_deals", str(path))


def test_it_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="No such file"):
        run_command("paper_from_deals", str(tmp_path / "missing.json"))
