"""The ``blackangel eval`` command: JSON keys, independence from --workers, exit code 2 for bad arguments."""

import json

import pytest

from blackangel_env.cli import main, wilson_interval

KEYS = {"games", "wins", "win_rate", "win_rate_ci95", "mean_vp", "std_vp", "mean_rounds", "mean_decisions"}


def test_eval_solo_json(tmp_path):
    out = tmp_path / "r.json"
    assert main(["eval", "--players", "greedy", "--hal", "standard", "--games", "2", "--seed", "1",
                 "--quiet", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    row = doc["agents"]["greedy"]
    assert KEYS | {"mean_margin_vs_hal"} <= set(row)
    assert row["games"] == 2 and len(row["win_rate_ci95"]) == 2
    assert 0 <= row["win_rate_ci95"][0] <= row["win_rate"] <= row["win_rate_ci95"][1] <= 1


@pytest.mark.slow
def test_eval_workers_do_not_change_results(tmp_path):
    docs = []
    for k in (1, 2):
        out = tmp_path / f"w{k}.json"
        assert main(["eval", "--players", "greedy,random,random", "--games", "4", "--seed", "9", "--workers", str(k),
                     "--quiet", "--json", str(out)]) == 0
        docs.append(json.loads(out.read_text()))
    for d in docs:                              # the agents' CPU time is a measurement, not a result
        for r in d["agents"].values():
            assert r.pop("mean_cpu_s") >= 0.0
    assert docs[0]["agents"] == docs[1]["agents"]
    assert docs[0]["agents"]["random"]["games"] == 8 and KEYS <= set(docs[0]["agents"]["random"])


@pytest.mark.parametrize("argv", [
    ["--players", "nope", "--games", "1", "--seed", "0"],
    ["--players", "random,random", "--hal", "easy", "--games", "1", "--seed", "0"],
    ["--players", "random,random,random,random,random", "--games", "1", "--seed", "0"],
    ["--players", "random", "--games", "0", "--seed", "0"],
    ["--players", "random", "--games", "1", "--seed", "0", "--workers", "0"],
])
def test_eval_bad_arguments_exit_2(argv, capsys):
    assert main(["eval", *argv]) == 2
    assert "blackangel eval:" in capsys.readouterr().err


def test_eval_missing_argument_exit_2():
    with pytest.raises(SystemExit) as e:
        main(["eval", "--players", "random"])
    assert e.value.code == 2


def test_wilson_interval():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson_interval(0, 0) == [0.0, 1.0]
