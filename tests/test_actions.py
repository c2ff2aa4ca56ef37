"""The fixed action table: blocks built by construction, O(1) encode/decode, readable names."""

from __future__ import annotations

import pytest

from blackangel_env import actions as A


def test_blocks_are_contiguous_and_cover_the_table():
    expected = 0
    for name, start, size, _doc in A.table_rows():
        assert start == expected, name
        expected += size
    assert expected == A.NUM_ACTIONS


def test_encode_decode_roundtrip_over_the_whole_table():
    for a in range(A.NUM_ACTIONS):
        block, arg = A.decode(a)
        assert A.encode(block, arg) == a
        assert A.action_to_string(a)


def test_names_are_unique_and_readable():
    names = [A.action_to_string(a) for a in range(A.NUM_ACTIONS)]
    assert len(set(names)) == len(names)
    assert A.action_to_string(A.encode("PLAY_MISSION", 17 * 6 + 4)) == \
        "PLAY_MISSION(card=17 orange, slot=below col 2)"
    assert A.action_to_string(A.BOARD_ACTION + 2) == "BOARD_ACTION(action 3)"


def test_stable_ids():
    """Ids are part of the environment's contract (bump the env version if they change)."""
    assert (A.SEQUENCE_A, A.SEQUENCE_B, A.PASS, A.DONE) == (0, 1, 2, 3)
    assert A.PLAY_MISSION == 4 and A.PLAY_RAVAGER == 364
    assert A.NUM_ACTIONS == 882


@pytest.mark.parametrize("bad", [("NOPE", 0), ("DONE", 1), ("SELECT_DIE", 18), ("SELECT_DIE", -1)])
def test_encode_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        A.encode(*bad)


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS])
def test_decode_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        A.decode(bad)
