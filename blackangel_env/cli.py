"""The ``blackangel`` command line.

    blackangel --version
    blackangel demo [--config FILE] [--players 3] [--seed 1] [--advanced] [--hal standard] [--every turn|round|end]
                    [--viewer N]
    blackangel bench [--seconds 3] [--json]
    blackangel play [--players 2] [--seat 0] [--opponents CODE[,CODE...]] [--hal standard] [--advanced] [--seed S]
                    [--save FILE]
    blackangel play --load FILE [--seat 0] [--opponents CODE[,CODE...]] [--save FILE]
    blackangel replay FILE [--viewer N] [--step]
    blackangel eval --players CODE[,CODE...] [--hal standard] [--advanced] --games N --seed S [--workers K]
                    [--json FILE] [--plot FILE]

``demo`` plays a complete seeded game with uniformly random legal moves (the moves come from a generator
seeded with the same seed), printing the board as it goes, every move and VP change with its cause, and the
final scores with their breakdown by source.

``eval`` benchmarks agents named by codes (``random``, ``greedy``, ``heuristic``, ``mcts:<simulations>``,
``policy:<path>``, ``rllib:<path>``; see ``blackangel_env.agents.make_agent``).  One code plays solo games against Hal
(``--hal``); several codes play tables of that many players, the seats rotated across games (game g seats code i
at seat (i + g) mod n).  Game g uses the game
seed and agent seeds derived from (S, g) only, so the results do not depend on ``--workers``.  Per agent (codes
given twice are pooled): games, wins (ties share the victory: each tied winner counts a win; solo: more VP than
Hal), win_rate with its 95% Wilson interval, mean and standard deviation of the final VP, mean margin against
Hal (solo), mean game length in rounds and in decisions; ``--json`` adds the per-game lists ``vp`` (and
``hal_vp``, Hal's final VP, in solo games).  Exit codes: 0 done, 2 bad arguments.

``play`` lets a person play in the terminal against Hal (``--players 1``) or bots (the other seats, played by
the agent codes of ``--opponents``, random by default): the board is drawn from the person's view, the legal
actions are listed by number and name, and the input is checked (a number from the list, or ``help``,
``board``, ``log``, ``save [FILE]``, ``quit`` or ``q``).  With ``--save FILE`` the game record (config, seed, every
action) is written after each decision, so ``--load FILE`` resumes it exactly.  Ctrl-C stops the game: it is
saved to ``--save``'s file, or the player is offered to save it.  ``replay FILE`` steps through such a record,
printing each decision and the board.

Every mistake of the user (a bad value, a missing or malformed file, a folder where a file is expected, a
missing optional extra) is reported as one line ``blackangel <command>: ...`` on stderr, with exit code 2, before
any game is played; Ctrl-C exits with code 130.

This module is the application layer: it is the only place in the package, with ``bench``, above the environments,
and the only one that imports ``blackangel_env.agents`` and ``blackangel_env.training`` (docs/architecture.md).
"""


from __future__ import annotations

import argparse
import sys

import numpy as np

from . import engine
from .config import ConfigError, GameConfig
from .constants import HAL_DIFFICULTIES
from .arguments import file_name, output_problem, path_problem, player_count, seed as seed_arg
from .extras import missing_extra
from .render import render
from .scoring import score_breakdown
from .state import BOT, GAME_RECORD_FORMAT, M_ROUND, M_TURN_PLAYER, STATE_FORMAT

# The application layer: the agents (and the agent codes of blackangel_env/training/: policy:<path>, rllib:<path>)
# sit above the environments and are imported here, never by the modules below (docs/architecture.md).
from .agents import make_agent, parse_agent_code
from .agents.codes import split_agent_codes
from .agents.arena import MAX_WORKERS, play_matches, summarize
from .agents.arena import wilson_interval  # noqa: F401  (re-exported)
from .training import agent_codes  # noqa: F401  (registers policy:<path> and rllib:<path> with agents.codes)


def _error(command: str, msg: str) -> int:
    """Print ``blackangel <command>: <msg>`` as one line on stderr; return the exit code for bad input, 2."""
    print(f"blackangel {command}: {' '.join(msg.split())}", file=sys.stderr)
    return 2


def _new_game(config: GameConfig, seed: int, log: bool = True):
    """``engine.new_game``, with a component file that cannot be read reported as a ValueError naming it."""
    try:
        return engine.new_game(config, seed=seed, log=log)
    except OSError as e:
        raise ValueError(f"cannot read the component file {config.components}: {e.strerror or e}") from None


def _viewer_problem(viewer: int | None, n: int) -> str | None:
    if viewer is not None and not 0 <= viewer < n:
        seats = "0" if n == 1 else f"0 to {n - 1}"
        return f"--viewer must be a seat of this {n}-player game ({seats}), got {viewer}"
    return None


def _demo(args: argparse.Namespace) -> int:
    def fail(msg: str) -> int:
        return _error("demo", msg)

    if args.config:
        given = [o for o, v in (("--players", args.players), ("--hal", args.hal),
                                ("--advanced", args.advanced or None)) if v is not None]
        if given:
            return fail(f"--config sets the players, the rules and Hal's difficulty: drop {', '.join(given)}")
    try:
        if args.config:
            config = GameConfig.from_yaml(args.config)
        else:
            config = GameConfig(num_players=3 if args.players is None else args.players, advanced=args.advanced,
                                hal_difficulty=args.hal or "standard")
    except ConfigError as e:
        return fail(str(e))
    except UnicodeDecodeError:
        return fail(f"game config {args.config} is not UTF-8 text")
    if args.hal is not None and not args.config and not config.solo:
        return fail("--hal applies to solo games only (--players 1)")
    problem = _viewer_problem(args.viewer, config.num_players)
    if problem:
        return fail(problem)
    try:
        s = _new_game(config, args.seed)
    except ValueError as e:
        return fail(str(e))
    rng = np.random.default_rng(args.seed)
    shown = 0
    last_key = None
    while not s.terminal:
        key = (int(s.m[M_ROUND]), int(s.m[M_TURN_PLAYER])) if args.every == "turn" else int(s.m[M_ROUND])
        if args.every != "end" and key != last_key:
            print("\n".join(s.log[shown:]))
            shown = len(s.log)
            print(render(s, args.viewer))
            last_key = key
        legal = engine.legal_actions(s)
        engine.apply(s, legal[int(rng.integers(len(legal)))])
    print("\n".join(s.log[shown:]))
    print(render(s, args.viewer))
    print("\nFinal scores")
    for p, row in enumerate(score_breakdown(s)):
        parts = ", ".join(f"{k} {v:+d}" for k, v in row.items() if k != "total" and v)
        print(f"  player_{p}: {row['total']} VP ({parts})")
    if config.solo:
        print(f"  Hal: {int(s.vp[BOT])} VP")
    won = engine.winners(s)
    if config.solo:
        print("player_0 beats Hal" if won else "Hal wins")
    else:
        print("winner(s): " + ", ".join(f"player_{p}" for p in won))
    return 0


def _bench(args: argparse.Namespace) -> int:
    if not 0 < args.seconds < float("inf"):
        return _error("bench", f"--seconds must be a positive number, got {args.seconds}")
    from .bench import main as bench
    bench(["--seconds", str(args.seconds)] + (["--json"] if args.json else []))
    return 0


_AGENT_EXTRAS = {"policy": "train", "rllib": "rllib"}   # agent kind -> the extra it needs


def _make_agent(code: str, seed: int | None):
    """``blackangel_env.agents.make_agent``; a bad code, a missing extra or a checkpoint that does not load raise a
    ValueError naming the code and the cause."""
    kind, opts = parse_agent_code(code)
    if kind in _AGENT_EXTRAS:
        missing = missing_extra(_AGENT_EXTRAS[kind])
        if missing:
            raise ValueError(f"agent code {code!r} {missing}")
        try:
            return make_agent(code, seed=seed)
        except Exception as e:   # a user's file: not a checkpoint, a foreign archive, a model missing inside
            if isinstance(e, ValueError) and str(e).startswith(f"agent code {code!r}: cannot load"):
                raise ValueError(str(e)) from None        # the kind's own message already says it
            raise ValueError(f"agent code {code!r}: cannot load {opts['path']}: {e}") from None
    return make_agent(code, seed=seed)


def _plot_problem(path: str) -> str | None:
    """Why ``--plot path`` cannot be drawn (missing extra, folder, unknown image format), or None."""
    missing = missing_extra("plot")
    if missing:
        return f"--plot {missing}"
    problem = output_problem(path, "--plot")
    if problem:
        return problem
    from pathlib import Path
    from matplotlib.backend_bases import FigureCanvasBase
    ext = Path(path).suffix[1:].lower()
    formats = FigureCanvasBase.get_supported_filetypes()
    if ext and ext not in formats:
        return f"--plot {path}: unknown image format {ext!r}; use one of {', '.join(sorted(formats))}"
    try:                                    # a format may need a program of its own (pgf: LaTeX): try it now
        _draw_test(ext or None)
    except Exception as e:  # noqa: BLE001 - whatever the format's writer raises, said in one line
        return f"--plot {path}: cannot write the {ext or 'default'} format here ({type(e).__name__}: {e})"
    return None


def _draw_test(fmt: str | None) -> None:
    """Write an empty figure in ``fmt`` to memory (raises what saving a plot in that format would)."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(1, 1))
    try:
        ax.plot([0, 1], [0, 1], label="x")
        ax.legend()
        fig.savefig(io.BytesIO(), format=fmt)
    finally:
        plt.close(fig)


def _eval(args: argparse.Namespace) -> int:
    def fail(msg: str) -> int:
        return _error("eval", msg)

    codes = split_agent_codes(args.players)
    if len(codes) == 1 and codes[0].isdigit():
        return fail(f"--players takes agent codes, one per seat (e.g. heuristic,greedy,random), not a count; "
                    f"got {codes[0]!r}")
    if len(codes) > 4:
        return fail(f"at most 4 players, got {len(codes)} codes")
    if len(codes) > 1 and args.hal is not None:
        return fail("--hal applies to solo games only (one code in --players)")
    if args.games < 1:
        return fail(f"--games must be at least 1, got {args.games}")
    if not 1 <= args.workers <= MAX_WORKERS:
        return fail(f"--workers must be 1-{MAX_WORKERS}, got {args.workers}")
    problem = (args.json and output_problem(args.json, "--json")) or (args.plot and _plot_problem(args.plot))
    if problem:
        return fail(problem)
    for c in dict.fromkeys(codes):
        try:
            _make_agent(c, seed=0)    # a bad code or an unloadable checkpoint is refused before the games
        except ValueError as e:
            return fail(str(e))
    hal = args.hal or "standard"
    results = play_matches(codes, args.games, seed=args.seed, hal=hal, advanced=args.advanced,
                           workers=args.workers, progress=False if args.quiet else {"desc": "eval"}, timing=True)
    summary = summarize(results)
    solo = len(codes) == 1
    what = f"solo vs Hal ({hal})" if solo else f"{len(codes)}-player tables"
    print(f"{args.games} games, {what}, {'advanced' if args.advanced else 'base'} rules, seed {args.seed}")
    w = max([14] + [len(c) + 1 for c in summary])      # the agent column fits the longest code
    head = f"{'agent':<{w}}{'games':>6}{'wins':>6}{'win rate':>9}  {'95% CI':<14}{'mean VP':>8}{'std VP':>7}"
    head += f"{'margin':>8}" if solo else ""
    print(head + f"{'rounds':>7}{'decisions':>10}{'CPU s/game':>11}")
    for code, r in summary.items():
        lo, hi = r["win_rate_ci95"]
        line = (f"{code:<{w}}{r['games']:>6}{r['wins']:>6}{r['win_rate']:>9.3f}  [{lo:.3f}, {hi:.3f}]  "
                f"{r['mean_vp']:>8.2f}{r['std_vp']:>7.2f}")
        line += f"{r['mean_margin_vs_hal']:>8.2f}" if solo else ""
        print(line + f"{r['mean_rounds']:>7.1f}{r['mean_decisions']:>10.1f}{r['mean_cpu_s']:>11.2f}")
    if args.json:
        import json
        from pathlib import Path
        doc = {"players": codes, "hal": hal if solo else None, "advanced": args.advanced, "games": args.games,
               "seed": args.seed, "agents": summary}
        try:
            Path(args.json).write_text(json.dumps(doc, indent=2))
        except (OSError, ValueError) as e:       # checked before the games, but a file can still refuse a write
            return fail(f"--json {args.json}: the results could not be saved ({getattr(e, 'strerror', None) or e});"
                        f" the results above are complete")
    if args.plot:
        try:
            _eval_plot(summary, args.plot, what)
        except Exception as e:  # noqa: BLE001 - e.g. the file's folder removed during the games
            return fail(f"--plot {args.plot}: the plot could not be saved ({type(e).__name__}: {e}); the results "
                        f"above{' and in --json' if args.json else ''} are complete")
    return 0


def _eval_plot(summary: dict, path: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    vps = [r["vp"] for r in summary.values()]
    top = max(max(v) for v in vps)
    bins = np.arange(0, top + 2) - 0.5
    for code, r in summary.items():
        ax.hist(r["vp"], bins=bins, alpha=0.5, label=f"{code} (mean {r['mean_vp']:.1f})")
    ax.set_xlabel("final VP")
    ax.set_ylabel("games")
    ax.set_title(f"Final VP, {title}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


GAME_FORMAT = GAME_RECORD_FORMAT


def game_record(config: GameConfig, seed: int, actions: list[int], play: dict | None = None) -> dict:
    """A replayable record: (config, seed, actions) determines the whole game.  ``play`` (optional): the seat and
    the opponents' agent codes of a ``blackangel play`` session, which ``play --load`` takes back."""
    record = {"format": GAME_FORMAT, "version": 1, "config": config.to_dict(), "seed": seed, "actions": actions}
    if play is not None:
        record["play"] = play
    return record


def _play_settings(d: dict, path: str) -> dict:
    """The ``play`` entry of a read game record (seat, opponents), {} when it has none; ValueError naming what is
    wrong."""
    play = d.get("play", {})
    if not isinstance(play, dict) or set(play) - {"seat", "opponents"}:
        raise ValueError(f"{path}: 'play' must hold only 'seat' and 'opponents'")
    if "seat" in play and (not _is_int(play["seat"]) or play["seat"] < 0):
        raise ValueError(f"{path}: 'play.seat' must be a non-negative integer, got {play['seat']!r}")
    if "opponents" in play and not isinstance(play["opponents"], str):
        raise ValueError(f"{path}: 'play.opponents' must be a string of agent codes, got {play['opponents']!r}")
    return play


def load_record(path: str) -> tuple[GameConfig, int, list[int]]:
    """Read a game record; raises ValueError naming what is wrong."""
    return _read_record(path)[:3]


def _read_record(path: str) -> tuple[GameConfig, int, list[int], dict]:
    """``load_record`` and the ``play`` entry of the record (``_play_settings``), from one reading of the file."""
    import json
    problem = path_problem(path)
    if problem:
        raise ValueError(f"cannot read {path}: {problem}")
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a game record (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON: {e}") from None
    except (ValueError, RecursionError) as e:   # an integer of thousands of digits, arrays nested thousands deep
        raise ValueError(f"{path} is not a game record: {e}") from None
    if isinstance(d, dict) and d.get("format") == STATE_FORMAT:
        raise ValueError(f"{path} is not a blackangel_env game record but a saved state (State.save): load it "
                         "in Python with blackangel_env.State.load; `play --save` writes the records that "
                         "`replay` and `play --load` read")
    if not isinstance(d, dict) or d.get("format") != GAME_FORMAT:
        raise ValueError(f"{path} is not a blackangel_env game record")
    version = d.get("version", 1)
    if not _is_int(version) or version != 1:
        raise ValueError(f"{path}: unsupported game-record version {version!r} (this version reads version 1)")
    cfg = d.get("config")
    if isinstance(cfg, dict) and "num_players" not in cfg:     # a default would replay another game
        raise ValueError(f"{path}: the record's config lacks 'num_players'")
    try:
        config = GameConfig.from_dict(cfg)
    except (ConfigError, TypeError) as e:
        raise ValueError(f"{path}: bad config: {e}") from None
    seed, actions = d.get("seed"), d.get("actions")
    if not _is_int(seed) or seed < 0:
        raise ValueError(f"{path}: 'seed' must be a non-negative integer, got {seed!r}")
    if not isinstance(actions, list) or not all(_is_int(a) for a in actions):
        raise ValueError(f"{path}: 'actions' must be a list of integer action ids")
    return config, seed, actions, _play_settings(d, path)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def replay_record(config: GameConfig, seed: int, actions: list[int], log: bool = True):
    """Rebuild the game of a record; raises ValueError if the game cannot be set up or an action does not apply."""
    s = _new_game(config, seed, log=log)
    for i, a in enumerate(actions):
        try:
            engine.apply(s, a)
        except engine.IllegalActionError as e:
            raise ValueError(f"the record's action #{i} does not apply: {e}") from None
    return s


def _save_record(path: str, record: dict) -> None:
    import json
    from .files import write_replacing
    write_replacing(path, json.dumps(record))


def _save_problem(path: str, option: str) -> str | None:
    """Why a game record cannot be saved to ``path`` (a missing folder, a folder, a file that is not a game
    record and would be overwritten), or None."""
    from pathlib import Path
    problem = output_problem(path, option)
    if problem is None and Path(path).exists():
        try:
            load_record(path)
        except ValueError:
            return f"{option} {path} exists and is not a game record; not overwriting it"
    return problem


def _try_save(path: str, record: dict) -> bool:
    """Save ``record``; on failure print one line saying why (the game goes on) and return False."""
    problem = _save_problem(path, "cannot save:")
    if problem is None:
        try:
            _save_record(path, record)
            return True
        except (OSError, ValueError) as e:       # ValueError: a name the system refuses (a NUL byte)
            problem = f"cannot save: {path}: {getattr(e, 'strerror', None) or e}"
    _error("play", problem)
    return False


def _print_final(s) -> None:
    print("\nFinal scores")
    for p, row in enumerate(score_breakdown(s)):
        parts = ", ".join(f"{k} {v:+d}" for k, v in row.items() if k != "total" and v)
        print(f"  player_{p}: {row['total']} VP ({parts})")
    if s.config.solo:
        print(f"  Hal: {int(s.vp[BOT])} VP")
        print("player_0 beats Hal" if engine.winners(s) else "Hal wins")
    else:
        print("winner(s): " + ", ".join(f"player_{p}" for p in engine.winners(s)))


_PLAY_HELP = """Type the number of a legal action, or:
  board        draw the board again
  log          the last 30 lines of the game log
  save [FILE]  save the game record (to --save's file by default)
  quit, q      stop (the record is kept if --save was given)"""


def _play(args: argparse.Namespace) -> int:
    session: dict = {}
    try:
        return _play_game(args, session)
    except KeyboardInterrupt:
        return _play_interrupted(session)


def _play_interrupted(session: dict) -> int:
    """Ctrl-C in ``play``: save the game to --save's file, or offer to save it; exit code 130."""
    print("\ninterrupted")
    if "taken" not in session:                    # before the game started: nothing to save
        return 130
    record = game_record(session["config"], session["seed"], session["taken"], session.get("play"))
    if session["save_path"]:
        if _try_save(session["save_path"], record):
            print(f"the game is saved in {session['save_path']}; resume with "
                  f"blackangel play --load {session['save_path']}")
        return 130
    prompt = "save the game? a file name, or Enter to leave without saving: "
    while True:
        try:
            target = input(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            target = ""
        if not target or target.lower() in ("n", "no"):
            print("left without saving")
            return 130
        if target.lower() in ("y", "yes"):         # an answer, not a file name
            prompt = "the file name to save the game to (Enter: leave without saving): "
            continue
        if _try_save(target, record):
            print(f"saved to {target}; resume with blackangel play --load {target}")
            return 130


def _play_game(args: argparse.Namespace, session: dict) -> int:
    from . import actions as A, explain
    from .encoding import encode_observation

    def fail(msg: str) -> int:
        return _error("play", msg)

    opponents_from = "--opponents"                 # where the bots' codes come from, for the messages
    if args.load:
        given = [o for o, v in (("--players", args.players), ("--hal", args.hal), ("--advanced", args.advanced),
                                ("--seed", args.seed)) if v is not None]
        if given:
            return fail(f"--load resumes the record's own game (players, rules, seed): drop {', '.join(given)}")
        try:
            config, seed, taken, played = _read_record(args.load)
            s = replay_record(config, seed, taken)
        except ValueError as e:
            return fail(str(e))
        # the seat and opponents of the saved session, unless given again
        if args.seat is None:
            args.seat = played.get("seat", 0)
            if not args.seat < config.num_players:
                return fail(f"{args.load}: 'play.seat' is {args.seat}, but the game has {config.num_players} "
                            f"player(s) (seats 0..{config.num_players - 1})")
        if args.opponents is None:
            args.opponents = played.get("opponents", "")
            opponents_from = f"{args.load}: 'play.opponents'"
    else:
        try:
            config = GameConfig(num_players=1 if args.players is None else args.players,
                                advanced=bool(args.advanced), hal_difficulty=args.hal or "standard")
        except ConfigError as e:
            return fail(str(e))
        if args.hal is not None and not config.solo:
            return fail("--hal applies to solo games only (--players 1); the other seats are bots (--opponents)")
        seed = 0 if args.seed is None else args.seed
        taken = []
        try:
            s = _new_game(config, seed)
        except ValueError as e:
            return fail(str(e))
    if args.seat is None:
        args.seat = 0
    if args.opponents is None:
        args.opponents = ""
    n = config.num_players
    if not 0 <= args.seat < n:
        return fail("--seat must be 0 in a solo game" if n == 1 else f"--seat must be 0..{n - 1}")
    codes = split_agent_codes(args.opponents) if args.opponents.strip() else []
    if "" in codes:
        return fail(f"{opponents_from}: an empty agent code in {args.opponents!r} (codes are separated by single "
                    "commas)")
    if codes and config.solo:
        return fail(f"{opponents_from} names the bots of a 2-4 player game; in a solo game you play against Hal "
                    "(choose his difficulty with --hal)")
    others = [p for p in range(n) if p != args.seat]
    if codes and len(codes) not in (1, len(others)):
        wanted = "1 code" if len(others) == 1 else f"1 code (for every bot) or {len(others)} (one per bot)"
        return fail(f"{opponents_from} needs {wanted}, got {len(codes)}")
    if args.save is not None and not args.save.strip():
        return fail("--save needs a file name, e.g. --save game.json")
    save_path = args.save or args.load
    problem = _save_problem(args.save, "--save") if args.save else None
    if problem:
        return fail(problem)
    try:
        bots = {p: _make_agent((codes[i] if len(codes) > 1 else codes[0]) if codes else "random", seed=seed + 1 + p)
                for i, p in enumerate(others)}
    except ValueError as e:
        return fail(str(e) if opponents_from == "--opponents" else f"{opponents_from}: {e}")
    if args.load:                                  # said once the record's seat and opponents are accepted
        print(f"resumed {args.load}: {len(taken)} decisions replayed; you play seat {args.seat}"
              + (f" against {args.opponents}" if args.opponents else ""))
    play = {"seat": args.seat, "opponents": ",".join(codes)}
    session.update(config=config, seed=seed, taken=taken, save_path=save_path, play=play)
    saved = bool(save_path) and save_path == args.load      # the save file holds the game as it stands
    shown = 0
    while not s.terminal:
        p = s.actor
        if p != args.seat:
            a = bots[p].act(encode_observation(s, p), engine.legal_mask(s), s.copy())
            engine.apply(s, a)
            taken.append(a)
            continue
        print("\n".join(s.log[shown:]))
        shown = len(s.log)
        print(render(s, args.seat))
        legal = engine.legal_actions(s)
        print(explain.prompt(s))
        for i, (a, text) in enumerate(zip(legal, explain.describe_options(s, legal))):
            print(f"  {i:3d}  {text}  [{A.action_to_string(a)}]")
        while True:
            try:
                line = input(f"player_{args.seat}> ").strip()
            except EOFError:
                print("\ninput ended; game left unfinished" + (f" (saved to {save_path})" if saved else ""))
                return 0
            command = line.split(maxsplit=1)[0].lower() if line else ""     # commands in any case
            if line.lower() in ("quit", "q"):
                unsaved = f"; the game is not saved in {save_path}" if save_path else ""
                if unsaved and args.load and args.load != save_path:
                    unsaved += f" ({args.load} still holds it as loaded: resume with --load {args.load})"
                print("stopped" + (f"; resume with --load {save_path}" if saved else unsaved))
                return 0
            if line.lower() == "help" or not line:
                print(explain.explain_rules(s) + "\n" + _PLAY_HELP)
                continue
            if line.lower() == "board":
                print(render(s, args.seat))
                continue
            if line.lower() == "log":
                print("\n".join(s.log[-30:]))
                continue
            if command == "save":
                target = line.split(maxsplit=1)[1] if len(line.split()) > 1 else save_path
                if not target:
                    print("save where? give a file: save game.json")
                    continue
                if _try_save(target, game_record(config, seed, taken, play)):
                    print(f"saved to {target}")
                    saved = saved or target == save_path
                continue
            if line.isascii() and line.isdigit() and int(line) < len(legal):
                a = legal[int(line)]
                engine.apply(s, a)
                taken.append(a)
                if save_path:
                    saved = _try_save(save_path, game_record(config, seed, taken, play))
                break
            print(f"'{line}' is not a number from 0 to {len(legal) - 1}; type help for the commands")
    print("\n".join(s.log[shown:]))
    print(render(s, args.seat))
    _print_final(s)
    if save_path:
        _try_save(save_path, game_record(config, seed, taken, play))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from . import actions as A
    try:
        config, seed, taken = load_record(args.file)
        problem = _viewer_problem(args.viewer, config.num_players)
        if problem:
            raise ValueError(problem)
        s = _new_game(config, seed)
    except ValueError as e:
        return _error("replay", str(e))
    shown = 0
    for i, a in enumerate(taken):
        who = s.actor
        try:
            engine.apply(s, a)
        except engine.IllegalActionError as e:
            return _error("replay", f"action #{i} does not apply: {e}")
        print(f"#{i} player_{who}: {A.action_to_string(a)}")
        print("\n".join("    " + line for line in s.log[shown:] if not line.startswith("[")))
        shown = len(s.log)
        if args.step:
            print(render(s, args.viewer))
            try:
                answer = input("-- Enter for the next decision, q to stop --")
            except EOFError:
                return 0
            if answer.strip().lower() in ("q", "quit"):
                return 0
    print(render(s, args.viewer))
    if s.terminal:
        _print_final(s)
    else:
        print(f"(the record stops here, before the end of the game: {len(taken)} decision"
              f"{'' if len(taken) == 1 else 's'} recorded)")
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``blackangel eval: argument --seed: ...``, exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``blackangel`` argument parser: every subcommand and option with its help line."""
    from . import __version__
    ap = _Parser(prog="blackangel", description="Black Angel, the board game, for RL.")
    ap.add_argument("--version", action="version", version=f"blackangel {__version__}",
                    help="print the version and exit")
    sub = ap.add_subparsers(dest="command", required=True, metavar="{demo,bench,eval,play,replay}")
    d = sub.add_parser("demo", help="play a complete seeded game with random legal moves, printing the board",
                       description="Play a complete seeded game with uniformly random legal moves, printing the "
                                   "board, every move and VP change with its cause, and the final scores.")
    d.add_argument("--config", metavar="FILE", type=file_name,
                   help="a game config YAML (configs/games/*.yaml), in place of --players, --advanced and --hal")
    d.add_argument("--players", type=player_count, default=None, help="1 (solo against Hal) to 4; default 3")
    d.add_argument("--seed", type=seed_arg, default=1, help="game and move seed, a non-negative integer; default 1")
    d.add_argument("--advanced", action="store_true", help="use the advanced rules")
    d.add_argument("--hal", choices=HAL_DIFFICULTIES, default=None,
                   help="Hal's difficulty (solo games only; default standard)")
    d.add_argument("--every", choices=("turn", "round", "end"), default="round",
                   help="print the board at every turn, every round (default) or only at the end")
    d.add_argument("--viewer", type=int, default=None, metavar="SEAT",
                   help="draw the board from this seat's view, 0 to players-1 (default: every hand shown)")
    d.set_defaults(func=_demo)
    b = sub.add_parser("bench", help="engine throughput benchmark",
                       description="Measure the engine's decisions per second with random play, and rollouts' "
                                   "(benchmarks/bench.py of a source checkout measures the environments too).")
    b.add_argument("--seconds", type=float, default=3.0, help="seconds of play per player count; default 3")
    b.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    b.set_defaults(func=_bench)
    e = sub.add_parser("eval", help="benchmark agents: solo against Hal or at tables of agents",
                       description="Play seeded games between agents named by codes (random, greedy, heuristic, "
                                   "mcts[:<simulations>], search, search:<key>=<value>,..., pretrained, "
                                   "policy:<path>, rllib:<path>) and report win rates "
                                   "with 95% Wilson intervals, VP and game length.  Exit code 2 for bad arguments.")
    e.add_argument("--players", required=True, metavar="CODE[,CODE...]",
                   help="one code: solo games against Hal; 2-4 codes: tables of that many players (seats rotated)")
    e.add_argument("--hal", choices=HAL_DIFFICULTIES, default=None, help="Hal's difficulty (solo; default standard)")
    e.add_argument("--advanced", action="store_true", help="use the advanced rules")
    e.add_argument("--games", type=int, required=True, help="number of games")
    e.add_argument("--seed", type=seed_arg, required=True,
                   help="base seed, a non-negative integer (game g is seeded from (seed, g))")
    e.add_argument("--workers", type=int, default=1, help="parallel processes (results do not depend on it)")
    e.add_argument("--json", metavar="FILE", type=file_name, help="write the per-agent results as JSON")
    e.add_argument("--plot", metavar="FILE", type=file_name,
                   help="save a histogram of the final VP per agent (needs the plot extra: matplotlib)")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    e.set_defaults(func=_eval)
    pl = sub.add_parser("play", help="play in the terminal against Hal or bots",
                        description="Play in the terminal against Hal (--players 1) or bots.  Type the number of "
                                    "an action, or help, board, log, save [FILE], quit; Ctrl-C stops and offers "
                                    "to save.")
    pl.add_argument("--players", type=player_count, default=None, help="1 (solo against Hal, default) to 4")
    pl.add_argument("--seat", type=int, default=None,
                    help="your seat (0 = first player, the default; --load: the saved game's seat)")
    pl.add_argument("--opponents", default=None, metavar="CODE[,CODE...]",
                    help="agent codes for the other seats of a 2-4 player game: one for all, or one per seat "
                         "(default random; --load: the saved game's)")
    pl.add_argument("--hal", choices=HAL_DIFFICULTIES, default=None,
                    help="Hal's difficulty (solo games only; default standard)")
    pl.add_argument("--advanced", action="store_true", default=None, help="use the advanced rules")
    pl.add_argument("--seed", type=seed_arg, default=None, help="game seed, a non-negative integer; default 0")
    pl.add_argument("--save", metavar="FILE", type=file_name, help="write the game record here after every decision")
    pl.add_argument("--load", metavar="FILE", type=file_name,
                    help="resume a saved game record (its own players, rules and seed, and the seat and "
                         "opponents it was played with) and keep saving to it")
    pl.set_defaults(func=_play)
    r = sub.add_parser("replay", help="step through a saved game record",
                       description="Print each decision of a saved game record (blackangel play --save) "
                                   "and the board.")
    r.add_argument("file", type=file_name, help="the game record (JSON) to replay")
    r.add_argument("--viewer", type=int, default=None, metavar="SEAT",
                   help="draw the board from this seat's view (default: every hand shown)")
    r.add_argument("--step", action="store_true",
                   help="draw the board and wait for Enter after each decision (q stops)")
    r.set_defaults(func=_replay)
    for parser in sub.choices.values():          # main() refuses unknown options with the subcommand's parser
        parser.set_defaults(parser=parser)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args, extra = ap.parse_known_args(argv)
    if extra:                          # refused by the subcommand's parser, so that the error names its help
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"\nblackangel {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (``blackangel demo | head``): stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
