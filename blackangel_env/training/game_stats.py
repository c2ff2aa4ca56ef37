"""Logged games for analysis: play seeded games with agents and record one row per (game, seat).

    python -m blackangel_env.training.game_stats --players heuristic --hal standard --games 2000 --seed 0 \\
        --out results/games_heuristic.csv.gz [--workers 2] [--summary results/games_heuristic.json]
    python -m blackangel_env.training.game_stats --players heuristic,greedy,random --games 300 --seed 0 --out tables.csv

Players are agent codes (``blackangel_env.agents.make_agent``: ``random``, ``greedy``, ``heuristic``, ``mcts:<N>``,
``policy:<run dir or .zip>``).  One code plays solo games against Hal (``--hal``); several codes play tables of
that many players with the seats rotated as in ``blackangel eval`` (game g seats code i at seat (i + g) mod n).
Game g uses the game seed and agent seeds that ``blackangel eval`` derives from (seed, g), so the same games are
played whatever ``--workers`` is, and the final scores agree with ``blackangel eval`` on the same arguments.

A row (``FIELDS`` lists the columns in order; ``LIST_FIELDS`` are lists of integers) holds:

* the game: ``game`` (index), ``game_seed``, ``players``, ``hal`` (difficulty; empty at a table),
  ``advanced``, ``rounds``, ``decisions`` (all seats), ``spes_reached`` (the end came by Spes rather than by the
  Ravager deck);
* the seat and its result: ``agent`` (code), ``seat``, ``won`` (solo: more VP than Hal; a table: among the
  tied best), ``vp`` (final VP), ``vp_<source>`` for every source of ``scoring.score_breakdown``
  (``state.VP_SOURCES``; they add up to ``vp``), ``hal_vp`` (solo), ``hal_vp_<source>`` (solo; empty at a table)
  for every source of ``HAL_VP_SOURCES``, adding up to ``hal_vp``: ``start`` (his starting VP by difficulty),
  ``discover``, ``repair``, ``destroy`` (his actions, by the weighting of his cards), ``mission_reward`` (the
  reward of a Mission card he places by Command), ``comet`` (his card placed on a comet), ``ejected`` (his cards
  ejected by the Black Angel), ``free_activation`` (the player activated his card), ``unable`` (an action he
  could not take), ``no_die`` (neither colour of his card available), ``trade`` (the player bought his die),
  ``penalty`` (damaged dice he rolled) and ``other`` (a cause none of ``HAL_VP_CAUSES`` matches: 0 today); they
  are read from the game's log, which the recorder turns on in solo games (it changes nothing in the game),
  ``margin`` (solo: vp - Hal's VP; a table: vp - the best other seat's VP);
* what the seat decided, counted from the actions it took (``blackangel_env.actions``):

  - turns: ``turns``, ``seq_a``, ``reboots`` (Sequence B: reroll, reset, advance), ``reboots_forced`` (B when
    Sequence A was not legal), ``passes`` (final turn), ``reboot_rounds`` (the round of each reboot),
    ``first_reboot_round`` (-1 if none), ``reboot_dice_left`` / ``reboot_pips_lost`` (own dice still in the
    compartment at a reboot, and their total value = the VP lost), ``reserves`` (dice reserved in Sequence B);
  - dice (A2): ``dice_used``, ``die_<colour>`` (die colour), ``die_v0`` .. ``die_v3`` (the value it acted with,
    after a flip or boost; 0 = star), ``die_flips``, ``dice_bought`` (another seat's die, or Hal's:
    ``dice_bought_hal``), and what it went to: ``use_act1`` .. ``use_act6`` (the Black Angel's printed
    actions), ``use_<kind>`` (discover, repair, destroy, command), ``use_mission`` (an activation Mission card
    in Space), ``use_mission_<colour>``;
  - Mission cards: ``drawn_<colour>`` (cards that came into the hand, however drawn), ``a1_<colour>`` (played
    around the board in A1), ``a1_ravager``, ``a1_none`` (A1 declined), ``placed_<colour>`` (placed in Space by
    Command), ``tucked_<colour>`` (ejected cards tucked under the board at the end);
  - tiles, Ravagers, ships, robots: ``tech_taken``, ``advanced_taken``, ``tiles_ejected``,
    ``grid_tech`` / ``grid_advanced`` (tiles in the grid at the end), ``ravagers_destroyed`` (cards),
    ``repairs``, ``ships_launched``, ``robots_to_ws`` (robots moved to a workstation), ``ws_robots`` (robots
    in the workstations at the end);
  - ``blk_<block>``: how many actions of each block of the action table the seat took;
  - goods left at the end: ``end_res``, ``end_ships``, ``end_debris``, ``end_robots_break``.

The command line prints per agent the win rate, mean VP and margin, and the mean VP by source of the agent and
(solo) of Hal; ``--summary FILE.json`` writes the same (``source_summary``).

Rows are saved as CSV or JSON lines (``.csv``, ``.jsonl``, either with ``.gz``), read back by ``load_rows``;
``columns(rows)`` turns them into numpy arrays; ``by_agent``, ``summary``, ``vp_by_source``,
``hal_vp_by_source``, ``FEATURES`` /
``features`` (per-game rates and shares of the choices above) and ``correlations`` are the analysis helpers of
``notebooks/strategy_study.ipynb`` and ``notebooks/training_report.ipynb``.  numpy and the standard library
only.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import re
import sys
import time
from pathlib import Path
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from blackangel_env.arguments import non_negative_int, output_problem, positive_int, seed as seed_arg
from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.constants import ACTION_KINDS, ADV_TILE0, COLOURS, HAL_DIFFICULTIES, N_TECH
from blackangel_env.scoring import score_breakdown
from blackangel_env.state import (
    BOT, M_DIE_COLOUR0, M_DIE_VALUE, M_ROUND, M_SPES_REACHED, M_TURN_PLAYER,
    MC_HAND, MC_TUCKED, PH_A1_CARD, PH_A2_MODIFY, PH_B_RESERVE, PH_TURN, SRC_START, TL_EJECTED, VP_SOURCES, State,
)

from blackangel_env.agents.arena import (AgentBuildError, check_codes, match_seeds, play_match, play_matches,
                                         wilson_interval)
from blackangel_env.agents.codes import split_agent_codes

__all__ = ["FEATURES", "FIELDS", "HAL_VP_CAUSES", "HAL_VP_SOURCES", "LIST_FIELDS", "GameRecorder", "agent_label",
           "by_agent", "columns", "correlations", "features", "game_seeds", "hal_vp_by_source", "hal_vp_causes",
           "load_rows", "main", "play_game", "play_games", "save_rows", "source_summary", "summary",
           "vp_by_source"]

_BLOCKS = [name for name, _, _ in A.BLOCKS]
_KIND_OF_ACTION: tuple[int, ...] | None = None      # board action -> kind (components), filled on first use

# -- Hal's VP by cause -----------------------------------------------------------------------------------------
# Hal's VP (solo) all land in few ``vp_src`` sources (SRC_START, SRC_HAL, SRC_TRADE, SRC_PENALTY), but every change
# goes through ``engine.core.gain_vp``, which logs "Hal <+n> VP (<cause>) -> <new>" when the game keeps a log.
# The recorder turns the log on for solo games (it changes no game: the log is no part of the state buffer and
# no rule reads it) and sorts the changes by the cause.  One row per kind of change: the column suffix, the
# pattern the whole cause matches, and the engine function that emits it.  A change whose cause matches none
# lands in ``hal_vp_other`` (tests/test_game_stats.py asserts it stays 0 over seeded games).
HAL_VP_CAUSES: tuple[tuple[str, str, str], ...] = (
    ("discover", r"Discover: \d+ tile\(s\), \d+ Advanced",
     "engine.hal._hal_discover -> core.hal_gain (tiles by the weighting of his cards)"),
    ("repair", r"Repair: \d+ cube\(s\) become debris",
     "engine.hal._hal_repair -> core.hal_gain (debris by the weighting)"),
    ("destroy", r"Destroy: \d+ Ravager card\(s\)",
     "engine.hal._hal_destroy -> core.hal_gain (Ravager cards by the weighting)"),
    ("mission_reward", r"reward of Mission card \d+",
     "engine.hal._hal_command -> missions.place_mission -> core.gain_goods -> core.hal_gain (his card's reward)"),
    ("comet", r"his Mission card lies on a comet", "engine.hal._hal_command (3 VP)"),
    ("ejected", r"his Mission card \d+ is ejected", "engine.black_angel.advance_black_angel (3 VP a card)"),
    ("free_activation", r"free activation of his Mission card \d+",
     "engine.hal.hal_free_activation, from activation._finish_mission (the player used his card)"),
    ("unable", r"unable to act: .+",
     ("engine.hal._unable (3 VP), from _hal_action (die value 0), _hal_discover, _hal_repair, _hal_destroy, "
      "_hal_command")),
    ("no_die", r"no \w+ or \w+ die available", "engine.hal.hal_turn (3 VP: neither colour of his card)"),
    ("trade", r"player_\d+ bought Hal's die", "engine.sequence_a._do_a2_die (1 VP, SRC_TRADE)"),
    ("penalty", r"rolled a damaged \w+ die",
     "engine.dice._roll_dice / _take_supply_die via hal._hal_sequence_b (-1 VP, SRC_PENALTY)"),
)
_HAL_CAUSE_RES = tuple((name, re.compile(pattern)) for name, pattern, _ in HAL_VP_CAUSES)
_HAL_VP_LINE = re.compile(r"Hal ([+-]\d+) VP \((.*)\) -> (\d+)")
# hal_vp_<source>: his starting VP (by difficulty), each cause above, and the rest; they add up to hal_vp.
HAL_VP_SOURCES = ("start",) + tuple(name for name, _, _ in HAL_VP_CAUSES) + ("other",)


def hal_vp_causes(log: Iterable[str], start_vp: int) -> tuple[dict[str, int], list[str]]:
    """Hal's VP changes in the lines of a game's log, summed by ``HAL_VP_CAUSES`` (keys: their names and
    ``other``), and the causes that matched none.  A change counts what his VP really moved (the logged new
    value less the one before, from ``start_vp``: a loss is clipped at 0)."""
    out = {name: 0 for name, _, _ in HAL_VP_CAUSES}
    out["other"] = 0
    unknown: list[str] = []
    prev = start_vp
    for line in log:
        if not line.startswith("Hal "):
            continue
        m = _HAL_VP_LINE.fullmatch(line)
        if m is None:
            continue
        cause, new = m.group(2), int(m.group(3))
        delta, prev = new - prev, new
        for name, pattern in _HAL_CAUSE_RES:
            if pattern.fullmatch(cause):
                out[name] += delta
                break
        else:
            out["other"] += delta
            unknown.append(cause)
    return out, unknown


GAME_FIELDS = ["game", "game_seed", "players", "hal", "advanced", "rounds", "decisions", "spes_reached"]
RESULT_FIELDS = (["agent", "seat", "won", "vp"] + [f"vp_{src}" for src in VP_SOURCES]
                 + ["hal_vp"] + [f"hal_vp_{src}" for src in HAL_VP_SOURCES] + ["margin"])
COUNT_FIELDS = (
    ["own_decisions", "turns", "seq_a", "reboots", "reboots_forced", "passes", "first_reboot_round",
     "reboot_dice_left", "reboot_pips_lost", "reserves"]
    + ["dice_used"] + [f"die_{c}" for c in COLOURS] + [f"die_v{v}" for v in range(4)]
    + ["die_flips", "dice_bought", "dice_bought_hal"]
    + [f"use_act{a + 1}" for a in range(6)] + [f"use_{k}" for k in ACTION_KINDS] + ["use_mission"]
    + [f"use_mission_{c}" for c in COLOURS]
    + [f"drawn_{c}" for c in COLOURS] + [f"a1_{c}" for c in COLOURS] + ["a1_ravager", "a1_none"]
    + [f"placed_{c}" for c in COLOURS] + [f"tucked_{c}" for c in COLOURS]
    + ["tech_taken", "advanced_taken", "tiles_ejected", "grid_tech", "grid_advanced", "ravagers_destroyed",
       "repairs", "ships_launched", "robots_to_ws", "ws_robots"]
    + [f"blk_{b.lower()}" for b in _BLOCKS]
    + ["end_res", "end_ships", "end_debris", "end_robots_break"]
)
LIST_FIELDS = ("reboot_rounds",)
FIELDS = GAME_FIELDS + RESULT_FIELDS + COUNT_FIELDS + list(LIST_FIELDS)
_STR_FIELDS = {"agent", "hal"}
_HAL_FIELDS = ("hal_vp",) + tuple(f"hal_vp_{src}" for src in HAL_VP_SOURCES)     # empty at a table


def _kind_of_action(s: State) -> tuple[int, ...]:
    return tuple(s.comp.action_kind)


class GameRecorder:
    """Counts every seat's decisions: a recorder of ``blackangel_env.agents.arena.play_match`` (``before`` / ``after``
    each action: what the action does is read from the state before it and, for the cards drawn, after it), or call
    ``apply(state, action)`` instead of ``engine.apply``.  ``rows()`` once the game is over gives the per-seat
    rows (without the game and agent columns).  In a solo game it turns on the state's log (``state.log = []``) if
    the game keeps none, to sort Hal's VP by cause (``HAL_VP_CAUSES``); the log changes nothing in the game."""

    def __init__(self, state: State):
        self.n = state.num_players
        self.c: list[dict[str, int]] = [{f: 0 for f in COUNT_FIELDS} for _ in range(self.n)]
        for d in self.c:
            d["first_reboot_round"] = -1
        self.reboot_rounds: list[list[int]] = [[] for _ in range(self.n)]
        self._kinds = _kind_of_action(state)
        self._where_before = state.mc_where.copy()
        # Solo: Hal's VP by cause are read from the log (HAL_VP_CAUSES); turn it on if the game keeps none.
        self._solo = bool(state.config.solo)
        self._log_from = 0
        self._hal_vp0 = int(state.vp[BOT])
        if self._solo:
            if state.log is None:
                state.log = []
            self._log_from = len(state.log)

    def apply(self, s: State, a: int) -> None:
        """Record ``a`` and apply it (``before``, ``engine.apply``, ``after``)."""
        self.before(s, a)
        engine.apply(s, a)
        self.after(s, a)

    def before(self, s: State, a: int) -> None:
        """Count what ``a`` does, read from the state it is taken in (``blackangel_env.agents.arena.Recorder``)."""
        p = s.actor
        if not 0 <= p < self.n:
            raise ValueError(f"no seat of the game is to act (actor {p})")
        c = self.c[p]
        name, arg = A.decode(a)
        c["own_decisions"] += 1
        c["blk_" + name.lower()] += 1
        phase = s.phase
        if phase == PH_TURN and int(s.m[M_TURN_PLAYER]) == p:
            c["turns"] += 1
            if name == "SEQUENCE_A":
                c["seq_a"] += 1
            elif name == "SEQUENCE_B":
                rnd = int(s.m[M_ROUND])
                c["reboots"] += 1
                if not engine.legal_mask(s)[A.SEQUENCE_A]:
                    c["reboots_forced"] += 1
                if c["first_reboot_round"] < 0:
                    c["first_reboot_round"] = rnd
                self.reboot_rounds[p].append(rnd)
                mine = s.die_owner == p
                c["reboot_dice_left"] += int(np.count_nonzero(mine))
                c["reboot_pips_lost"] += int(s.die_value[mine].sum())
            elif name == "PASS":
                c["passes"] += 1
        elif name == "SELECT_DIE":
            owner = int(s.die_owner[arg])
            if owner != p:
                c["dice_bought"] += 1
                if owner == BOT and s.config.solo:
                    c["dice_bought_hal"] += 1
        elif name == "FLIP_DIE":
            c["die_flips"] += 1
        elif name in ("BOARD_ACTION", "MISSION_ACTION") and phase == PH_A2_MODIFY:
            c["dice_used"] += 1
            c[f"die_{COLOURS[int(s.m[M_DIE_COLOUR0])]}"] += 1
            c[f"die_v{min(3, max(0, int(s.m[M_DIE_VALUE])))}"] += 1
            if name == "BOARD_ACTION":
                c[f"use_act{arg + 1}"] += 1
                c[f"use_{ACTION_KINDS[self._kinds[arg]]}"] += 1
            else:
                c["use_mission"] += 1
                c[f"use_mission_{COLOURS[arg // 20]}"] += 1
        elif name == "PLAY_MISSION":
            c[f"a1_{COLOURS[(arg // A.N_SLOT) // 20]}"] += 1
        elif name == "PLAY_RAVAGER":
            c["a1_ravager"] += 1
        elif name == "PLACE_MISSION":
            c[f"placed_{COLOURS[arg // 20]}"] += 1
        elif name == "TAKE_TECH":
            c["tech_taken"] += 1
        elif name == "TAKE_ADVANCED":
            c["advanced_taken"] += 1
        elif name == "DESTROY":
            c["ravagers_destroyed"] += int(s.rav_count[arg])
        elif name in ("REPAIR_ACTION", "REPAIR_DIE"):
            c["repairs"] += 1
        elif name == "LAUNCH_SHIP":
            c["ships_launched"] += 1
        elif name == "ROBOT_TO_WORKSTATION":
            c["robots_to_ws"] += 1
        elif name == "RESERVE_DIE" and phase == PH_B_RESERVE:   # not the setup reservation of a player aid
            c["reserves"] += 1
        if name == "DONE" and phase == PH_A1_CARD:          # A1 declined
            c["a1_none"] += 1
        self._where_before = s.mc_where.copy()

    def after(self, s: State, a: int) -> None:
        """Count the Mission cards that came into a hand (drawn by A3, a tile, a mission, kept from two...),
        whoever decided."""
        where = s.mc_where
        for card in np.flatnonzero(where != self._where_before).tolist():
            seat = int(where[card]) - MC_HAND
            if 0 <= seat < self.n:
                self.c[seat][f"drawn_{COLOURS[card // 20]}"] += 1

    def finish(self, s: State) -> dict[str, Any]:
        """What ``blackangel_env.agents.arena.play_match`` returns as the game's record: the per-seat ``rows`` and the
        game column that only the final state holds (``spes_reached``)."""
        return {"rows": self.rows(s), "spes_reached": int(bool(s.m[M_SPES_REACHED]))}

    def hal_sources(self, s: State) -> dict[str, int]:
        """Solo: ``hal_vp_<source>`` (``HAL_VP_SOURCES``) from the log since the recorder began; ``other`` also
        takes whatever of his VP the log does not account for, so that they add up to his VP."""
        causes, _ = hal_vp_causes(s.log[self._log_from:] if s.log is not None else (), self._hal_vp0)
        start = int(s.vp_src[BOT, SRC_START])
        out = {"hal_vp_start": start}
        for name, _, _ in HAL_VP_CAUSES:
            out[f"hal_vp_{name}"] = causes[name]
        out["hal_vp_other"] = int(s.vp[BOT]) - start - sum(causes[name] for name, _, _ in HAL_VP_CAUSES)
        return out

    def rows(self, s: State) -> list[dict[str, Any]]:
        if not s.terminal:
            raise ValueError("the game is not over")
        out = []
        scores = engine.final_scores(s)
        won = engine.winners(s)
        breakdown = score_breakdown(s)
        for p in range(self.n):
            r: dict[str, Any] = {"seat": p, "won": int(p in won), "vp": scores[p]}
            for src in VP_SOURCES:
                r[f"vp_{src}"] = breakdown[p][src]
            if s.config.solo:
                r["hal_vp"] = int(s.vp[BOT])
                r.update(self.hal_sources(s))
                r["margin"] = scores[p] - int(s.vp[BOT])
            else:
                r["hal_vp"] = ""
                r.update({f"hal_vp_{src}": "" for src in HAL_VP_SOURCES})
                r["margin"] = scores[p] - max(v for q, v in enumerate(scores) if q != p)
            c = dict(self.c[p])
            mc = s.mc_where.tolist()
            for col, cname in enumerate(COLOURS):
                c[f"tucked_{cname}"] = mc[20 * col:20 * col + 20].count(MC_TUCKED + p)
            grid = [t for t in s.grid[p].tolist() if t >= 0]
            c["grid_tech"] = sum(1 for t in grid if t < ADV_TILE0)
            c["grid_advanced"] = sum(1 for t in grid if t >= ADV_TILE0)
            where = s.tile_where.tolist()
            c["tiles_ejected"] = (where[:N_TECH].count(TL_EJECTED + p) + where[ADV_TILE0:].count(TL_EJECTED + p)
                                  + int(np.count_nonzero(s.adv_space[p] >= 0)))
            c["ws_robots"] = int(s.robots_ws[p].sum())
            c["end_res"], c["end_ships"] = int(s.res[p]), int(s.ships[p])
            c["end_debris"], c["end_robots_break"] = int(s.debris[p]), int(s.robots_break[p])
            r.update(c)
            r["reboot_rounds"] = list(self.reboot_rounds[p])
            out.append(r)
        return out


# -- playing -------------------------------------------------------------------------------------------------

game_seeds = match_seeds      # the game seed and agent seeds of game g (``blackangel_env.agents.arena.match_seeds``)


def _game_rows(match: dict[str, Any], game: int, hal: str, advanced: bool) -> list[dict[str, Any]]:
    n = len(match["seats"])
    head = {"game": game, "game_seed": match["game_seed"], "players": n, "hal": hal if n == 1 else "",
            "advanced": int(advanced), "rounds": match["rounds"], "decisions": match["decisions"],
            "spes_reached": match["record"]["spes_reached"]}
    out = []
    for p, r in enumerate(match["record"]["rows"]):
        row = dict(head)
        row["agent"] = match["seats"][p]
        row.update(r)
        out.append({f: row[f] for f in FIELDS})
    return out


def play_game(codes: Sequence[str], game: int = 0, seed: int = 0, hal: str = "standard",
              advanced: bool = False) -> list[dict[str, Any]]:
    """Play game ``game`` of a series seeded ``seed`` (``blackangel_env.agents.arena.play_match``: one code = solo
    against Hal (``hal``), several = a table with the seats rotated).  Returns one row per seat (``FIELDS``)."""
    return _game_rows(play_match(list(codes), game, seed, hal, advanced, recorder=GameRecorder), game, hal, advanced)


def play_games(codes: Sequence[str], games: int, seed: int = 0, hal: str = "standard", advanced: bool = False,
               workers: int = 1, start: int = 0, progress: bool = False) -> list[dict[str, Any]]:
    """Games ``start .. start + games - 1`` (``play_game``), in ``workers`` processes
    (``blackangel_env.agents.arena.play_matches``); rows in game order."""
    matches = play_matches(codes, games, seed=seed, hal=hal, advanced=advanced, workers=workers, start=start,
                           progress=progress, recorder=GameRecorder)
    return [row for g, m in enumerate(matches, start) for row in _game_rows(m, g, hal, advanced)]


# -- saving and loading --------------------------------------------------------------------------------------

def _open(path: Path, mode: str):
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, mode + "b"), encoding="utf-8", newline="")
    return open(path, mode, encoding="utf-8", newline="")


def _is_jsonl(path: Path) -> bool:
    suffixes = path.suffixes[-2:] if path.suffix == ".gz" else path.suffixes[-1:]
    return bool(suffixes) and suffixes[0] in (".jsonl", ".json")


def save_rows(rows: Iterable[dict[str, Any]], path: str | Path) -> Path:
    """Write rows as CSV (list columns as space-separated integers) or JSON lines, by the file name."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = list(rows)
    fields = list(rows[0]) if rows else list(FIELDS)
    with _open(path, "w") as f:
        if _is_jsonl(path):
            for r in rows:
                f.write(json.dumps(r) + "\n")
        else:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(fields)
            for r in rows:
                w.writerow([" ".join(str(x) for x in r[k]) if k in LIST_FIELDS else r[k] for k in fields])
    return path


def _parse(field: str, text: str):
    if field in LIST_FIELDS:
        return [int(x) for x in text.split()]
    if field in _STR_FIELDS:
        return text
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def load_rows(paths: str | Path | Iterable[str | Path]) -> list[dict[str, Any]]:
    """Read rows written by ``save_rows`` (one file or several, concatenated)."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    out: list[dict[str, Any]] = []
    for path in map(Path, paths):
        with _open(path, "r") as f:
            if _is_jsonl(path):
                for line in f:
                    if line.strip():
                        r = json.loads(line)
                        for k in _HAL_FIELDS:
                            if r.get(k) == "":
                                r[k] = None
                        out.append(r)
            else:
                for r in csv.DictReader(f):
                    out.append({k: _parse(k, v) for k, v in r.items()})
    return out


def columns(rows: Sequence[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Rows -> {field: numpy array} (numbers as float arrays, with nan for missing values; strings as object
    arrays; list fields as object arrays of lists)."""
    if not rows:
        return {}
    out: dict[str, np.ndarray] = {}
    for k in rows[0]:
        vals = [r.get(k) for r in rows]
        if k in LIST_FIELDS or k in _STR_FIELDS:
            arr = np.empty(len(vals), dtype=object)
            arr[:] = vals
            out[k] = arr
        else:
            out[k] = np.array([np.nan if v is None or v == "" else v for v in vals], dtype=float)
    return out


# -- analysis helpers (used by the notebooks) -----------------------------------------------------------------

def agent_label(code: str) -> str:
    """A short name for an agent code: ``policy:<path>`` -> ``learned``."""
    return "learned" if str(code).lower().startswith("policy:") else str(code)


def by_agent(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, np.ndarray]]:
    """{agent label: columns of its rows}, in the order the agents first appear."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(agent_label(r["agent"]), []).append(r)
    return {k: columns(v) for k, v in groups.items()}


def summary(cols: dict[str, np.ndarray]) -> dict[str, float]:
    """Games, wins, win rate with its Wilson 95% interval, mean VP / Hal VP / margin / rounds of one agent."""
    n = len(cols["vp"])
    wins = int(np.nansum(cols["won"]))
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "wins": wins, "win_rate": wins / n if n else float("nan"), "ci95_low": lo,
            "ci95_high": hi, "mean_vp": float(np.mean(cols["vp"])),
            "mean_hal_vp": float(np.nanmean(cols["hal_vp"])) if np.isfinite(cols["hal_vp"]).any() else float("nan"),
            "mean_margin": float(np.mean(cols["margin"])), "mean_rounds": float(np.mean(cols["rounds"]))}


def vp_by_source(cols: dict[str, np.ndarray]) -> dict[str, float]:
    """Mean VP per game from each source of ``state.VP_SOURCES`` (they add up to the mean final VP)."""
    return {src: float(np.mean(cols[f"vp_{src}"])) for src in VP_SOURCES}


def hal_vp_by_source(cols: dict[str, np.ndarray]) -> dict[str, float]:
    """Hal's mean VP per solo game from each of ``HAL_VP_SOURCES`` (they add up to his mean final VP); nan
    without solo games (or rows logged before these columns)."""
    out = {}
    for src in HAL_VP_SOURCES:
        x = cols.get(f"hal_vp_{src}")
        out[src] = float(np.nanmean(x)) if x is not None and np.isfinite(x).any() else float("nan")
    return out


def source_summary(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """{agent code: ``summary`` of its rows with ``vp_by_source`` (the agent's) and ``hal_vp_by_source``}, in the
    order the agents first appear: what the command line prints and writes with ``--summary``."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(str(r["agent"]), []).append(r)
    out = {}
    for code, mine in groups.items():
        cols = columns(mine)
        out[code] = dict(summary(cols), vp_by_source=vp_by_source(cols), hal_vp_by_source=hal_vp_by_source(cols))
    return out


def _safe_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


# Per-game features describing a seat's choices: name -> (description, function of the columns).
FEATURES: dict[str, tuple[str, Any]] = {
    "reboots per turn": ("share of turns that were a Sequence B (reboot)",
                         lambda c: _safe_div(c["reboots"], c["turns"])),
    "forced reboot share": ("share of reboots taken because Sequence A was impossible",
                            lambda c: _safe_div(c["reboots_forced"], c["reboots"])),
    "first reboot round": ("round of the first reboot (nan if none)",
                           lambda c: np.where(c["first_reboot_round"] >= 0, c["first_reboot_round"], np.nan)),
    "pips lost per reboot": ("value of the own dice thrown back at a reboot, per reboot",
                             lambda c: _safe_div(c["reboot_pips_lost"], c["reboots"])),
    "reserves per reboot": ("dice reserved per reboot", lambda c: _safe_div(c["reserves"], c["reboots"])),
    "mean die value": ("mean value of the dice acted with (star = 0)",
                       lambda c: _safe_div(c["die_v1"] + 2 * c["die_v2"] + 3 * c["die_v3"], c["dice_used"])),
    "share of 3s": ("share of the dice acted with that showed 3", lambda c: _safe_div(c["die_v3"], c["dice_used"])),
    "flips per die": ("debris spent to flip, per die used", lambda c: _safe_div(c["die_flips"], c["dice_used"])),
    "dice bought from Hal": ("Hal's dice bought per game", lambda c: c["dice_bought_hal"]),
    **{f"{k} share": (f"share of the dice that went to {k}", (lambda k: lambda c: _safe_div(c[f"use_{k}"],
                                                                                           c["dice_used"]))(k))
       for k in (*ACTION_KINDS, "mission")},
    **{f"{c} dice share": (f"share of the dice used that were {c}",
                           (lambda col: lambda c: _safe_div(c[f"die_{col}"], c["dice_used"]))(c)) for c in COLOURS},
    "A1 skipped share": ("share of Sequence A turns without a card played in A1",
                         lambda c: _safe_div(c["a1_none"], c["seq_a"])),
    "A1 Ravager share": ("share of Sequence A turns with a Ravager card played in A1",
                         lambda c: _safe_div(c["a1_ravager"], c["seq_a"])),
    "missions placed": ("Mission cards placed in Space per game",
                        lambda c: c["placed_orange"] + c["placed_gray"] + c["placed_green"]),
    "tech tiles taken": ("Technology tiles taken per game", lambda c: c["tech_taken"]),
    "advanced tiles taken": ("Advanced tiles taken per game", lambda c: c["advanced_taken"]),
    "Ravagers destroyed": ("Ravager cards destroyed per game", lambda c: c["ravagers_destroyed"]),
    "ships launched": ("ships launched per game", lambda c: c["ships_launched"]),
    "robots to workstations": ("robots moved to a workstation per game", lambda c: c["robots_to_ws"]),
    "rounds": ("game length in rounds", lambda c: c["rounds"]),
}


def features(cols: dict[str, np.ndarray], names: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """The ``FEATURES`` (or those named) of every game of ``cols``, as float arrays (nan where undefined)."""
    return {k: np.asarray(FEATURES[k][1](cols), dtype=float) for k in (names or FEATURES)}


def correlations(feats: dict[str, np.ndarray], target: np.ndarray, min_games: int = 10) -> dict[str, float]:
    """Pearson correlation of each feature with ``target`` over the games where the feature is defined (nan
    when fewer than ``min_games`` games or no spread)."""
    out = {}
    target = np.asarray(target, dtype=float)
    for k, x in feats.items():
        ok = np.isfinite(x) & np.isfinite(target)
        if ok.sum() < min_games or np.std(x[ok]) == 0 or np.std(target[ok]) == 0:
            out[k] = float("nan")
        else:
            out[k] = float(np.corrcoef(x[ok], target[ok])[0, 1])
    return out


# -- command line --------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m blackangel_env.training.game_stats",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", required=True, help="agent code(s), comma-separated (one: solo against Hal)")
    ap.add_argument("--hal", default="standard", choices=HAL_DIFFICULTIES, help="Hal's difficulty (solo)")
    ap.add_argument("--advanced", action="store_true", help="advanced rules")
    ap.add_argument("--games", type=int, required=True, help="number of games")
    ap.add_argument("--seed", type=seed_arg, default=0,
                    help="series seed, a non-negative integer (game g: seeds derived from (seed, g))")
    ap.add_argument("--start", type=non_negative_int, default=0, help="index of the first game (to split a series)")
    ap.add_argument("--workers", type=positive_int, default=1, help="worker processes")
    ap.add_argument("--out", required=True, help="output file: .csv or .jsonl, optionally .gz")
    ap.add_argument("--summary", help="also write the summary per agent (win rate, mean VP, mean VP by source for "
                                      "the agent and for Hal) as JSON to this file")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    for opt, value in (("--out", args.out), ("--summary", args.summary)):
        problem = output_problem(value, opt) if value is not None else None
        if problem:
            ap.error(problem)
    try:
        codes = check_codes(split_agent_codes(args.players), args.hal)
    except ValueError as e:
        print(f"python -m blackangel_env.training.game_stats: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        rows = play_games(codes, args.games, seed=args.seed, hal=args.hal, advanced=args.advanced,
                          workers=args.workers, start=args.start, progress=not args.quiet)
    except AgentBuildError as e:                 # e.g. policy:<a folder without a model>
        print(f"python -m blackangel_env.training.game_stats: {e}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - t0
    path = save_rows(rows, args.out)
    agents = sorted({r["agent"] for r in rows})
    print(f"{args.games} games ({', '.join(agents)}; {'solo vs Hal ' + args.hal if len(codes) == 1 else 'tables'})"
          f" in {seconds:.1f} s with {args.workers} worker(s): {len(rows)} rows -> {path}")
    summ = source_summary(rows)
    for code in agents:
        sm = summ[code]
        print(f"  {code:<14} win rate {sm['win_rate']:.3f}  mean VP {sm['mean_vp']:.2f}  mean margin "
              f"{sm['mean_margin']:+.2f}")
        print("    VP by source:  " + ", ".join(f"{k} {v:.2f}" for k, v in sm["vp_by_source"].items() if v))
        if len(codes) == 1:
            print(f"    Hal's VP {sm['mean_hal_vp']:.2f} by source: "
                  + ", ".join(f"{k} {v:.2f}" for k, v in sm["hal_vp_by_source"].items() if v))
    if args.summary:
        out = {"command": {k: v for k, v in vars(args).items() if k != "quiet"}, "seconds": seconds,
               "agents": {code: summ[code] for code in agents}}
        spath = Path(args.summary)
        spath.write_text(json.dumps(out, indent=1, allow_nan=True) + "\n", encoding="utf-8")
        print(f"  summary -> {spath}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
