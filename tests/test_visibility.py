"""Hidden information in the engine (issue 13 item 5): one visibility table (``engine.visibility``), used by the
observation encoder and by ``resample_hidden`` (the determinization the agents plan on).

* ``resample_hidden(s, seat, rng)`` changes only what the table hides from ``seat``, keeps every place the seat
  sees card for card and what it is shown of the others, and is invisible in the seat's own observation;
* swapping a card of a place the table hides from a seat with a deck card of the same colour leaves that seat's
  observation unchanged, while a place only the seat sees into is shown card by card;
* permuting the hidden part of a face-down stack (``HIDDEN_ORDERS``) changes no observation.
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import game  # noqa: F401  (puts the checkout on sys.path when the package is not installed)

from blackangel_env import actions as A
from blackangel_env import engine
from blackangel_env.encoding import OWN_CARD_SLICES, encode_observation
from blackangel_env.engine.visibility import (
    HIDDEN_ORDERS, HOLDER, MISSION_PLACES, NOBODY, PUBLIC, RAVAGER_PLACES, private_mission_places,
    resample_hidden, sees,
)
from blackangel_env.invariants import check_invariants
from blackangel_env.state import (
    M_ADV_DECK_N, M_HAL_DECK_N, M_RAV_DECK_N, MC_DECK, MC_SLOT, RAVAGER_SLOT, RV_DECK, State,
)

# the fields resample_hidden may write: card places and the face-down stacks (nothing else is hidden)
RESAMPLED_FIELDS = {"mc_where", "mc_owner", "mc_hex", "slots", "mc_deck", "rav_deck", "rav_where", "tech_stack",
                    "adv_deck", "hal_deck"}
QUIET = (A.DONE, A.SEQUENCE_B, A.PASS)


def positions(n: int, advanced: bool, seed: int, every: int = 3) -> list[State]:
    """Positions of one game played at random, preferring to act (so that hands, slots and draws fill up)."""
    rng = np.random.default_rng(seed)
    s = engine.new_game(num_players=n, advanced=advanced, seed=seed)
    out, k = [], 0
    while not s.terminal:
        if k % every == 0:
            out.append(s.copy())
        legal = engine.legal_actions(s)
        busy = [a for a in legal if a not in QUIET] if rng.random() < 0.8 else []
        choices = busy or legal
        engine.apply(s, choices[int(rng.random() * len(choices))])
        k += 1
    return out


def _cards_at(s: State, field: str, code: int) -> list[int]:
    return np.flatnonzero(getattr(s, field) == code).tolist()


CONFIGS = [(1, False), (2, True), (3, False), (4, True)]


def test_the_table_covers_every_place_code():
    """Every location code the state uses for a Mission or Ravager card belongs to exactly one place."""
    from blackangel_env import state as st
    mc = [getattr(st, n) for n in dir(st) if n.startswith("MC_")]
    rv = [getattr(st, n) for n in dir(st) if n.startswith("RV_")]
    assert sorted(p.code for p in MISSION_PLACES.values()) == sorted(mc)
    assert sorted(p.code for p in RAVAGER_PLACES.values()) == sorted(rv)
    for places in (MISSION_PLACES, RAVAGER_PLACES):
        for p in places.values():
            assert p.identity in (PUBLIC, HOLDER, NOBODY)
            assert bool(p.shown) == (p.identity != PUBLIC)
            assert not (p.resampled and p.identity == PUBLIC)
    assert set(HIDDEN_ORDERS) < set(s_fields := engine.new_game(num_players=2, seed=0)._fields), s_fields


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_resample_hidden_changes_only_what_the_table_hides(n, advanced):
    rng = np.random.default_rng(3)
    changed = {"mission": 0, "ravager": 0, "orders": 0}
    for s in positions(n, advanced, seed=300 + n):
        if s.terminal:
            continue
        seat = s.actor
        d = resample_hidden(s, seat, rng)
        check_invariants(d)
        for name, (shape, a, b) in s._fields.items():
            if name not in RESAMPLED_FIELDS:
                assert np.array_equal(s.buf[a:b], d.buf[a:b]), name
        assert engine.legal_actions(d) == engine.legal_actions(s)
        for field, places, key in (("mc_where", MISSION_PLACES, "mission"), ("rav_where", RAVAGER_PLACES, "ravager")):
            for place in places.values():
                for code in place.codes():
                    before, after = _cards_at(s, field, code), _cards_at(d, field, code)
                    if sees(place, code, seat) or not place.resampled:
                        assert before == after, (field, code)
                    elif field == "mc_where":        # what the others see: the count of each colour
                        assert sorted(c // 20 for c in before) == sorted(c // 20 for c in after), code
                        changed[key] += before != after
                    else:
                        assert len(before) == len(after), code
                        changed[key] += before != after
        changed["orders"] += not np.array_equal(s.adv_deck, d.adv_deck)
        # what the seat sees is what it saw: its observation does not move
        assert np.array_equal(encode_observation(d, seat), encode_observation(s, seat))
    assert changed["orders"] > 0
    if s.comp.ravagers_removed[n]:                  # cards set aside at setup: pooled with the deck
        assert changed["ravager"] > 0
    if n > 1:
        assert changed["mission"] > 0


def _swap_with_deck(s: State, field: str, code: int) -> bool:
    """Exchange a card lying at ``code`` with a card of the same colour in the deck (a consistent state)."""
    for card in _cards_at(s, field, code):
        if field == "mc_where":
            c = card // 20
            n = int(s.mc_deck_n[c])
            if n == 0:
                continue
            other = int(s.mc_deck[c, 0])
            s.mc_deck[c, 0] = card
            s.mc_where[card], s.mc_where[other] = MC_DECK, code
            s.mc_owner[other], s.mc_hex[other] = s.mc_owner[card], s.mc_hex[card]
            s.mc_owner[card] = s.mc_hex[card] = -1
            if MC_SLOT <= code < MC_SLOT + 10:
                row = s.slots[code - MC_SLOT]
                row[row == card] = other
            s.drawn[s.drawn == card] = other
        else:
            n = int(s.m[M_RAV_DECK_N])
            if n == 0:
                continue
            other = int(s.rav_deck[0])
            s.rav_deck[0] = card
            s.rav_where[card], s.rav_where[other] = RV_DECK, code
            s.slots[s.slots == RAVAGER_SLOT + card] = RAVAGER_SLOT + other
        return True
    return False


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_the_observation_shows_what_the_table_says(n, advanced):
    tested = {"hidden": 0, "private": 0}
    for s in positions(n, advanced, seed=400 + n, every=2):
        if s.terminal:
            continue
        for seat in range(n):
            before = encode_observation(s, seat)
            shown_by_id = {private_mission_places(seat)[place] for place in OWN_CARD_SLICES}
            for field, places in (("mc_where", MISSION_PLACES), ("rav_where", RAVAGER_PLACES)):
                for place in places.values():
                    if place.identity == PUBLIC or place.code == (MC_DECK if field == "mc_where" else RV_DECK):
                        continue
                    for code in place.codes():
                        t = s.copy()
                        if not _swap_with_deck(t, field, code):
                            continue
                        check_invariants(t)
                        after = encode_observation(t, seat)
                        if not sees(place, code, seat):
                            assert np.array_equal(after, before), (field, code, seat)
                            tested["hidden"] += 1
                        elif field == "mc_where" and code in shown_by_id:
                            assert not np.array_equal(after, before), (field, code, seat)   # shown card by card
                            tested["private"] += 1
    assert tested["private"] > 0
    if n > 1:
        assert tested["hidden"] > 0


@pytest.mark.parametrize("n,advanced", CONFIGS)
def test_hidden_orders_reach_no_observation(n, advanced):
    rng = np.random.default_rng(5)
    for s in positions(n, advanced, seed=500 + n, every=4):
        before = [encode_observation(s, seat) for seat in range(n)]
        t = s.copy()
        for c in range(3):
            k = int(t.mc_deck_n[c])
            t.mc_deck[c, :k] = rng.permutation(t.mc_deck[c, :k])
            k = int(t.tech_stack_n[c])
            if k > 1:
                t.tech_stack[c, :k - 1] = rng.permutation(t.tech_stack[c, :k - 1])      # the top stays
        for field, reg in (("rav_deck", M_RAV_DECK_N), ("adv_deck", M_ADV_DECK_N), ("hal_deck", M_HAL_DECK_N)):
            k = int(t.m[reg])
            arr = getattr(t, field)
            arr[:k] = rng.permutation(arr[:k])
        assert set(HIDDEN_ORDERS) == {"mc_deck", "tech_stack", "rav_deck", "adv_deck", "hal_deck"}
        check_invariants(t)
        for seat in range(n):
            assert np.array_equal(encode_observation(t, seat), before[seat])
