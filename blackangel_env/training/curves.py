"""Learning curves of a training run: the rollout statistics and the evaluations against Hal, as one figure.

    python -m blackangel_env.training.curves results/ppo_solo --out results/ppo_solo/learning_curve.png

Reads ``logs/from_<step>/progress.csv`` (every segment of a resumed run, in step order) and ``evaluations.csv``
(``blackangel_env/training/train_ppo.py``) and draws two panels over the learner's steps: the mean margin over Hal of
the training games (``rollout/margin``) with the evaluations' mean margin, and the evaluations' win rate with its 95%
Wilson interval.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

__all__ = ["read_progress", "read_evaluations", "plot_learning_curve", "main"]


def read_progress(run_dir: str | Path) -> list[dict[str, float]]:
    """The rows of every segment's ``progress.csv``, by step (empty cells left out)."""
    rows: list[dict[str, float]] = []
    for path in sorted(Path(run_dir).glob("logs/from_*/progress.csv")):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                rows.append({k: float(v) for k, v in r.items() if v not in ("", None)})
    return sorted(rows, key=lambda r: r.get("time/total_timesteps", 0.0))


def read_evaluations(run_dir: str | Path) -> list[dict[str, float]]:
    """The rows of ``evaluations.csv`` (empty when the run has none)."""
    path = Path(run_dir) / "evaluations.csv"
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def plot_learning_curve(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """Draw the run's learning curve into ``out`` (any format matplotlib writes); raises ``FileNotFoundError``
    when the run has no logs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    prog = read_progress(run_dir)
    evals = read_evaluations(run_dir)
    if not prog and not evals:
        raise FileNotFoundError(f"{run_dir}: no logs/from_*/progress.csv and no evaluations.csv")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    pts = [(r["time/total_timesteps"], r["rollout/margin"]) for r in prog if "rollout/margin" in r]
    if pts:
        ax1.plot(*zip(*pts), lw=1, alpha=0.7, label="training games (rollout/margin)")
    if evals:
        ax1.plot([e["step"] for e in evals], [e["mean_margin"] for e in evals], "o-", label="evaluation")
        steps = [e["step"] for e in evals]
        ax2.plot(steps, [100 * e["win_rate"] for e in evals], "o-", label="win rate")
        ax2.fill_between(steps, [100 * e["ci95_low"] for e in evals], [100 * e["ci95_high"] for e in evals],
                         alpha=0.2, label="95% CI")
    ax1.axhline(0, color="k", lw=0.5)
    ax1.set_xlabel("learner steps")
    ax1.set_ylabel("mean VP margin over Hal")
    ax1.legend(loc="upper right")
    ax2.set_xlabel("learner steps")
    ax2.set_ylabel("win rate vs Hal (%)")
    ax2.set_ylim(0, 100)
    ax2.legend(loc="upper left")
    fig.suptitle(title or f"{Path(run_dir).name}: MaskablePPO against Hal")
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", help="a training run directory")
    ap.add_argument("--out", required=True, help="image file to write (e.g. learning_curve.png)")
    ap.add_argument("--title", default=None)
    args = ap.parse_args(argv)
    from blackangel_env.extras import require_extra
    require_extra("plot", "python -m blackangel_env.training.curves")
    try:
        path = plot_learning_curve(args.run_dir, args.out, args.title)
    except FileNotFoundError as e:
        print(f"blackangel_env.training.curves: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

