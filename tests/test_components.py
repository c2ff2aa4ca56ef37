"""Tests of the component data file and its loader (blackangel_env/components.py).

Rulebook references: EN = shared/rules/rulebook-en.txt, FR = rulebook-fr.txt; rules-notes =
shared/design/rules-notes.md. These tests need neither the rules engine nor numpy.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest
import yaml

try:
    import blackangel_env  # noqa: F401
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blackangel_env import constants as C
from blackangel_env.components import (
    DEFAULT_PATH,
    ComponentError,
    Components,
    components_summary,
    default_components,
    load_components,
)


@pytest.fixture(scope="module")
def comp() -> Components:
    return default_components()


def goods(**kw: int) -> tuple[int, ...]:
    v = [0] * C.N_GOODS
    for k, n in kw.items():
        v[C.GOODS.index(k)] = n
    return tuple(v)


# --------------------------------------------------------------------------------------------------
# The packaged file


def test_packaged_file_loads(comp: Components) -> None:
    """The packaged components.yaml loads, and default_components() is cached."""
    assert Path(comp.path) == DEFAULT_PATH
    assert default_components() is comp
    again = load_components()
    assert again == comp
    assert load_components(DEFAULT_PATH) == comp


def test_board(comp: Components) -> None:
    """Rules-notes C10 (numbering) and A20: two actions per colour, action 3 is gray (EN 445)."""
    assert comp.action_colour == (C.ORANGE, C.ORANGE, C.GRAY, C.GRAY, C.GREEN, C.GREEN)
    assert comp.action_kind == (C.ACT_DISCOVER, C.ACT_COMMAND, C.ACT_REPAIR, C.ACT_COMMAND,
                                C.ACT_DESTROY, C.ACT_COMMAND)
    assert comp.actions_of_colour(C.GRAY) == (2, 3)
    assert comp.display_costs == (2, 2, 1, 1, 1, 1, 1, 1)  # C1; first two cost 2: EN 301
    assert comp.n_advanced_slots == 4 and comp.advanced_cost == 2
    assert comp.ravager_capacity == 3  # EN 434
    assert comp.max_action_damage == 2  # EN 290


def test_setup(comp: Components) -> None:
    """Setup (EN 170-222) and the 2-player/solo changes (EN 683-685)."""
    assert comp.die_faces == (0, 1, 1, 2, 3, 3)  # EN 274
    assert comp.dice_per_colour == {1: 4, 2: 4, 3: 5, 4: 6}
    assert comp.strips_used == {1: 5, 2: 5, 3: 7, 4: 7}
    assert comp.ravagers_removed == {1: 12, 2: 12, 3: 6, 4: 0}
    assert comp.start_vp == 5
    assert (comp.robots_per_player, comp.robots_break_room, comp.robots_per_workstation) == (16, 5, 1)
    assert (comp.start_resources, comp.start_debris, comp.start_ships) == (1, 1, 1)
    assert (comp.start_missions_per_colour, comp.start_ravagers) == (1, 1)
    assert comp.hand_limit == 6
    assert comp.hal_start_vp == {"easy": 0, "standard": 5, "difficult": 10, "extreme": 15}  # EN 791


def test_player_aids(comp: Components) -> None:
    """Rules-notes C9: P1 none, P2 +1 resource, P3 free reservation (EN 201), P4 both."""
    assert comp.aid_resources == (0, 1, 0, 1)
    assert comp.aid_free_reserve == (0, 0, 1, 1)


def test_mission_counts(comp: Components) -> None:
    """Rules-notes A12: 60 Mission cards, 20 per colour, 12 activation + 8 neutralization each."""
    assert len(comp.mission_colour) == C.N_MISSIONS
    for name in ("mission_kind", "mission_cost", "mission_gain", "mission_reward", "mission_reward_amount",
                 "mission_tiles", "mission_neut_kind", "mission_neut_owner", "mission_neut_holder",
                 "mission_neut_owner_also_holder", "mission_neut_colour", "mission_neut_vp_each"):
        assert len(getattr(comp, name)) == C.N_MISSIONS, name
    for c in range(C.N_COLOURS):
        ids = range(20 * c, 20 * c + 20)
        assert all(comp.mission_colour[i] == c for i in ids)
        assert [comp.mission_kind[i] for i in ids] == [C.MISSION_ACTIVATION] * 12 + [C.MISSION_NEUTRALIZATION] * 8
    assert comp.mission_number == tuple(range(1, 61))
    for i in range(C.N_MISSIONS):
        assert all(len(v) == C.N_GOODS for v in (comp.mission_cost[i], comp.mission_gain[i],
                                                 comp.mission_neut_owner[i], comp.mission_neut_holder[i]))
        if comp.mission_kind[i] == C.MISSION_ACTIVATION:
            assert comp.mission_neut_kind[i] == C.NEUT_NONE
            assert comp.mission_neut_colour[i] == -1 and comp.mission_neut_vp_each[i] == 0
            assert sum(comp.mission_gain[i]) > 0
        else:
            assert comp.mission_neut_kind[i] != C.NEUT_NONE
            assert sum(comp.mission_cost[i]) == 0


def test_mission_orange_activation_texts(comp: Components) -> None:
    """Appendix, MISSION CARDS (EN 831-875): orange 'Per activation, take 2 ships', 'take 1 ship and
    gain 1 VP', 'spend 1 ship ... to gain 2 VP', 'spend 1 resource ... and 1 technology ... to gain 3 VP'
    and 'spend 1 ship ... and 1 Mission card ... to gain 3 VP'."""
    assert comp.mission_cost[0] == goods() and comp.mission_gain[0] == goods(ship=2)
    assert comp.mission_gain[1] == goods(ship=1, vp=1)
    assert comp.mission_gain[2] == goods(ship=1, resource=1)
    assert comp.mission_gain[3] == goods(ship=1, robot=1)
    assert comp.mission_cost[4] == goods(ship=1) and comp.mission_gain[4] == goods(vp=2)
    assert comp.mission_cost[7] == goods(tech=2) and comp.mission_gain[7] == goods(vp=3)
    assert comp.mission_cost[8] == goods(resource=1, tech=1) and comp.mission_gain[8] == goods(vp=3)
    assert comp.mission_cost[11] == goods(ship=1, mission=1) and comp.mission_gain[11] == goods(vp=3)


def test_mission_gray_activation_texts(comp: Components) -> None:
    """Appendix, MISSION CARDS (EN 913-957): gray 'Per activation, take 2 resources', 'spend 1 debris
    ... to gain 2 VP', 'spend 1 robot and 1 debris ... to gain 3 VP' (EN 949 'I debris')."""
    assert comp.mission_gain[20] == goods(resource=2)
    assert comp.mission_gain[22] == goods(resource=1, ship=1)
    assert comp.mission_cost[26] == goods(debris=1) and comp.mission_gain[26] == goods(vp=2)
    assert comp.mission_cost[29] == goods(robot=1, debris=1)
    assert comp.mission_cost[31] == goods(resource=1, mission=1)


def test_mission_green_activation_texts(comp: Components) -> None:
    """Appendix, MISSION CARDS (EN 995-1039, with the FR 1473-1476 repairs of rules-notes A12): green
    'Per activation, take 2 robots', 'spend 2 Ravager cards ... to gain 3 VP', 'spend 1 ship and
    1 Ravager card -> 3 VP' (EN 1035 garbled), 'spend 1 robot and 1 Mission card -> 3 VP' (EN 1039)."""
    assert comp.mission_gain[40] == goods(robot=2)
    assert comp.mission_gain[43] == goods(robot=1, ship=1)
    assert comp.mission_cost[47] == goods(ravager=2) and comp.mission_gain[47] == goods(vp=3)
    assert comp.mission_cost[50] == goods(ship=1, ravager=1)
    assert comp.mission_cost[51] == goods(robot=1, mission=1)


def test_mission_neutralization_texts(comp: Components) -> None:
    """Appendix, MISSION CARDS, neutralization (EN 879-907, 961-989, 1043-1071) and the multi-effect /
    single-effect examples (EN 812-827, rules-notes B29/D7): orange 'the owner of this card takes 1 robot
    and 1 resource ... Each player with a ship on this card takes 3 ships'; '... takes 3 ships. Same for
    each player with a ship'; green '3 VP per gray Mission card already ejected and tucked'."""
    # orange neutralization 1 (id 12): same for each ship-holder -> single effect
    assert comp.mission_neut_kind[12] == C.NEUT_FIXED
    assert comp.mission_neut_owner[12] == goods(ship=3) == comp.mission_neut_holder[12]
    assert comp.mission_neut_owner_also_holder[12] is False
    # orange neutralization 2 (id 13): two-part card
    assert comp.mission_neut_owner[13] == goods(robot=1, resource=1)
    assert comp.mission_neut_holder[13] == goods(ship=3)
    assert comp.mission_neut_owner_also_holder[13] is True
    # orange neutralization 4 (id 15): owner 3 ships, holders 3 VP (the EN 815 multi-effect example)
    assert comp.mission_neut_owner[15] == goods(ship=3) and comp.mission_neut_holder[15] == goods(vp=3)
    assert comp.mission_neut_owner_also_holder[15] is True
    # gray neutralization 2 (id 33): owner 1 ship + 1 robot; green neutralization 2 (id 53): ship + resource
    assert comp.mission_neut_owner[33] == goods(ship=1, robot=1)
    assert comp.mission_neut_owner[53] == goods(ship=1, resource=1)
    # per-card neutralizations
    assert (comp.mission_neut_kind[16], comp.mission_neut_colour[16]) == (C.NEUT_PER_SPACE, C.GRAY)
    assert (comp.mission_neut_kind[17], comp.mission_neut_colour[17]) == (C.NEUT_PER_SPACE, C.GREEN)
    assert (comp.mission_neut_kind[38], comp.mission_neut_colour[38]) == (C.NEUT_PER_TUCKED, C.ORANGE)
    assert (comp.mission_neut_kind[59], comp.mission_neut_colour[59]) == (C.NEUT_PER_TUCKED, C.GRAY)
    for i in range(C.N_MISSIONS):
        if comp.mission_neut_kind[i] in (C.NEUT_PER_SPACE, C.NEUT_PER_TUCKED):
            assert comp.mission_neut_vp_each[i] == 3
            assert comp.mission_neut_colour[i] != comp.mission_colour[i]
            assert comp.mission_neut_owner_also_holder[i] is False


def test_mission_printed_data(comp: Components) -> None:
    """Rules-notes C3 (assumed): per colour 5 rewards each of VP / robot / resource / ship (EN 396),
    10 cards with 1 own-colour tile, 10 with own colour then another colour."""
    for c in range(C.N_COLOURS):
        ids = range(20 * c, 20 * c + 20)
        rewards = [comp.mission_reward[i] for i in ids]
        for g in (C.G_VP, C.G_ROBOT, C.G_RESOURCE, C.G_SHIP):
            assert rewards.count(g) == 5
        tiles = [comp.mission_tiles[i] for i in ids]
        assert sum(len(t) == 1 for t in tiles) == 10
        assert all(t[0] == c for t in tiles)
        assert all(t[1] != c for t in tiles if len(t) == 2)
    assert set(comp.mission_reward_amount) == {1}


def test_known_card_example(comp: Components) -> None:
    """Command Your Ships example (EN 417, EN 446): an orange card with reward 1 VP that makes 1 orange
    then 1 gray Technology tile appear. Under the C3 reconstruction it is orange #002 (id 1), whose
    effect '1 ship + 1 VP' matches the activation example on Madeline's card (FR 828-834)."""
    assert comp.mission_colour[1] == C.ORANGE
    assert comp.mission_reward[1] == C.G_VP and comp.mission_reward_amount[1] == 1
    assert comp.mission_tiles[1] == (C.ORANGE, C.GRAY)
    assert comp.mission_gain[1] == goods(ship=1, vp=1)
    matching = [i for i in range(C.N_MISSIONS) if comp.mission_colour[i] == C.ORANGE
                and comp.mission_reward[i] == C.G_VP and comp.mission_tiles[i] == (C.ORANGE, C.GRAY)]
    assert 1 in matching


def test_ravagers(comp: Components) -> None:
    """Appendix, RAVAGER CARDS (EN 1085-1105; rules-notes A11 groups of six, C4 targets): 061-066
    'Place a Damage cube ... on the next action clockwise', 067-072 damage a die 'of the color indicated
    on the card', 073-078 discard a Mission card, 079-084 discard a Ravager card, 085-090 robot on card."""
    assert comp.ravager_number == tuple(range(61, 91))
    assert comp.ravager_effect == tuple(i // 6 for i in range(30))
    assert comp.ravager_effect[0] == C.RAV_DAMAGE_NEXT
    assert comp.ravager_effect[6] == C.RAV_DAMAGE_DIE
    assert comp.ravager_effect[12] == C.RAV_DISCARD_MISSION
    assert comp.ravager_effect[18] == C.RAV_DISCARD_RAVAGER
    assert comp.ravager_effect[29] == C.RAV_ROBOT
    assert comp.ravager_action == tuple(i % 6 for i in range(30))
    for a in range(C.N_ACTIONS):
        assert comp.ravager_action.count(a) == 5
    for i in range(30):
        if comp.ravager_effect[i] == C.RAV_DAMAGE_DIE:
            assert comp.ravager_die_colour[i] == comp.action_colour[comp.ravager_action[i]]
        else:
            assert comp.ravager_die_colour[i] == -1
    dies = [comp.ravager_die_colour[i] for i in range(6, 12)]
    assert all(dies.count(c) == 2 for c in range(C.N_COLOURS))


def test_technology_tiles(comp: Components) -> None:
    """Appendix, TECHNOLOGY TILES standard side (EN 1129-1157) and boost side (EN 1167-1195); the
    distribution is rules-notes C5: 16 per colour, 4 take / 3 alternative / 3 VP / 2+2 activate / 2 draw,
    boosts 4 each with 'Gain 2 VP when you perform the action indicated' on the colour's own actions."""
    assert len(comp.tile_kind) == C.N_TILES
    take = {C.ORANGE: C.TE_SHIP, C.GRAY: C.TE_RESOURCE, C.GREEN: C.TE_ROBOT}
    alt = {C.ORANGE: C.TE_MOVE_SHIP, C.GRAY: C.TE_DEBRIS, C.GREEN: C.TE_MOVE_ROBOT}
    for c in range(C.N_COLOURS):
        ids = range(16 * c, 16 * c + 16)
        assert all(comp.tile_kind[i] == C.TILE_TECH and comp.tile_colour[i] == c for i in ids)
        eff = [comp.tile_effect[i] for i in ids]
        assert eff.count(take[c]) == 4 and eff.count(alt[c]) == 3 and eff.count(C.TE_VP) == 3
        assert eff.count(C.TE_ACT_VERTICAL) == 2 and eff.count(C.TE_ACT_HORIZONTAL) == 2
        assert eff.count(C.TE_DRAW_MISSION) == 2
        boosts = [comp.tile_boost[i] for i in ids]
        assert all(boosts.count(b) == 4 for b in range(4))
        vp_actions = [comp.tile_boost_arg[i] for i in ids if comp.tile_boost[i] == C.BE_VP_ON_ACTION]
        own = comp.actions_of_colour(c)
        assert sorted(vp_actions) == sorted(own * 2)
        for i in ids:
            if comp.tile_boost[i] != C.BE_VP_ON_ACTION:
                assert comp.tile_boost_arg[i] == c
            assert comp.tile_options[i] == () and comp.tile_adv[i] == -1
    # EN 360 example: an orange tile 'take 1 ship' and a gray tile 'gain 1 VP' exist
    assert any(comp.tile_colour[i] == C.ORANGE and comp.tile_effect[i] == C.TE_SHIP for i in range(48))
    assert any(comp.tile_colour[i] == C.GRAY and comp.tile_effect[i] == C.TE_VP for i in range(48))


def test_starting_tiles(comp: Components) -> None:
    """Appendix, STARTING TECHNOLOGY TILES (EN 1111-1119): 'Take 1 ship ... OR move one of your ships',
    'Take 1 resource OR 1 debris', 'Take 1 robot ... OR ...'; colourless (C12); diagonal cells (C11)."""
    opts = [(C.TE_SHIP, C.TE_MOVE_SHIP), (C.TE_RESOURCE, C.TE_DEBRIS), (C.TE_ROBOT, C.TE_MOVE_ROBOT)]
    for p in range(4):
        for k in range(3):
            t = C.START_TILE0 + 3 * p + k
            assert comp.tile_kind[t] == C.TILE_START
            assert comp.tile_effect[t] == C.TE_OR
            assert comp.tile_options[t] == opts[k]
            assert comp.tile_colour[t] == -1
            assert comp.tile_boost[t] == C.BE_NONE and comp.tile_boost_arg[t] == -1
    assert comp.start_tile_cells == ((0, 0), (1, 1), (2, 2))


def test_advanced_tiles(comp: Components) -> None:
    """Appendix, ADVANCED TECHNOLOGY (EN 1205-1223): 2 VP per tile of the indicated colour / ejected
    tile / debris / Ravager card / Advanced tile / card in Space; 8 kinds x 2 copies (C6)."""
    ids = range(C.ADV_TILE0, C.N_TILES)
    assert len(ids) == 16
    assert all(comp.tile_kind[t] == C.TILE_ADVANCED and comp.tile_effect[t] == C.TE_NONE for t in ids)
    assert all(comp.tile_colour[t] == -1 for t in ids)
    kinds = [(comp.tile_adv[t], comp.tile_adv_colour[t]) for t in ids]
    expected = [(C.AE_TILES_OF_COLOUR, c) for c in range(3)] + [
        (e, -1) for e in (C.AE_EJECTED_TECH, C.AE_DEBRIS, C.AE_RAVAGERS, C.AE_ADVANCED, C.AE_CARDS_IN_SPACE)]
    assert sorted(kinds) == sorted(expected * 2)


def test_space_strips(comp: Components) -> None:
    """Rules-notes A1 (7 strips of 5 hexes, asteroid or alien) and the C2 table: per face 1 asteroid,
    at most 2 hexes of a colour with the comet on one of a doubled pair (Hal's tie-break, EN 772-774),
    2 Ravager icons, and 3 apex asteroids in all."""
    assert comp.n_strips == 7
    apex_asteroids = 0
    for s in range(7):
        assert len(comp.strip_terrain[s]) == 2
        for f in range(2):
            ter, com, ico = comp.strip_terrain[s][f], comp.strip_comet[s][f], comp.strip_icons[s][f]
            assert len(ter) == len(com) == len(ico) == C.HEXES_PER_STRIP
            assert ter.count(C.T_ASTEROID) == 1
            assert sum(ico) == 2
            for c in range(3):
                assert ter.count(c) <= 2
                if ter.count(c) == 2:
                    assert sum(com[j] for j in range(5) if ter[j] == c) == 1
            assert sum(com) == 1
            apex_asteroids += ter[2] == C.T_ASTEROID
    assert apex_asteroids == 3
    # face 1A of the C2 table: O* A G1 N O1
    assert comp.strip_terrain[0][0] == (C.ORANGE, C.T_ASTEROID, C.GRAY, C.GREEN, C.ORANGE)
    assert comp.strip_comet[0][0] == (True, False, False, False, False)
    assert comp.strip_icons[0][0] == (0, 0, 1, 0, 1)


def test_hal(comp: Components) -> None:
    """Solo rules (EN 707-758, FR 1243-1248) with rules-notes C7/C8: the two halves of a Hal card differ
    in colour and name an action of their colour; weighting on the card backs (EN 699)."""
    assert len(comp.hal_top_colour) == C.N_HAL_CARDS
    pairs = []
    for i in range(C.N_HAL_CARDS):
        assert comp.hal_top_colour[i] != comp.hal_bottom_colour[i]
        assert comp.action_colour[comp.hal_top_action[i]] == comp.hal_top_colour[i]
        assert comp.action_colour[comp.hal_bottom_action[i]] == comp.hal_bottom_colour[i]
        pairs.append((comp.hal_top_colour[i], comp.hal_bottom_colour[i]))
    assert all(pairs.count((a, b)) == 2 for a in range(3) for b in range(3) if a != b)
    assert comp.hal_discover.count(C.HAL_DISCOVER_ADVANCED_FIRST) == 6
    assert comp.hal_rotation.count(C.HAL_CLOCKWISE) == 6
    assert comp.hal_top_action[0] == 0 and comp.hal_bottom_action[0] == 3  # H01: O-Disc / G-Cmd
    w = comp.hal_weight
    assert len(w) == C.N_GOODS
    assert (w[C.G_SHIP], w[C.G_RESOURCE], w[C.G_ROBOT], w[C.G_DEBRIS]) == (1, 1, 1, 1)
    assert (w[C.G_RAVAGER], w[C.G_TECH], w[C.G_VP], w[C.G_MISSION]) == (2, 2, 1, 0)
    assert comp.hal_weight_advanced == 4


def test_sources(comp: Components) -> None:
    """Every entry / field group has a source; the appendix effects are 'text', C-items 'assumed'."""
    assert set(comp.source.values()) <= {"text", "assumed"}
    assert comp.source["mission_cards[17]"] == "text"
    assert comp.source["mission_cards[17].reward"] == "assumed"
    assert comp.source["mission_cards[17].tiles"] == "assumed"
    assert comp.source["ravager_cards[3]"] == "text"
    assert comp.source["ravager_cards[3].target"] == "assumed"
    assert comp.source["board.display_costs"] == "assumed"
    assert comp.source["setup.dice_faces"] == "text"
    assert comp.source["hal.weights"] == "assumed"
    assert comp.source["starting_tiles.kinds[0]"] == "text"
    assert comp.source["starting_tiles.kinds[0].colour"] == "assumed"
    for i in range(60):
        assert f"mission_cards[{i}]" in comp.source
    text = components_summary(comp)
    assert "mission_cards[0-59].reward (60)" in text
    assert "Mission cards: 60" in text


def test_loading_is_pure() -> None:
    """Loading never writes the packaged file."""
    before = hashlib.sha256(DEFAULT_PATH.read_bytes()).hexdigest()
    mtime = DEFAULT_PATH.stat().st_mtime_ns
    load_components()
    load_components(str(DEFAULT_PATH))
    default_components()
    assert hashlib.sha256(DEFAULT_PATH.read_bytes()).hexdigest() == before
    assert DEFAULT_PATH.stat().st_mtime_ns == mtime


def test_copy_loads_identically(tmp_path: Path) -> None:
    """A verbatim copy loads to the same data (only `path` differs)."""
    p = tmp_path / "copy.yaml"
    shutil.copy(DEFAULT_PATH, p)
    c = load_components(p)
    assert c.path == str(p)
    assert c.mission_cost == default_components().mission_cost
    assert c.strip_terrain == default_components().strip_terrain


# --------------------------------------------------------------------------------------------------
# Corrupted copies


def _text_edit(old: str, new: str, count: int = 1):
    def f(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)
    return f


def _data_edit(fn):
    def f(text: str) -> str:
        data = yaml.safe_load(text)
        fn(data)
        return yaml.safe_dump(data, sort_keys=False)
    return f


def _drop_hex(d):
    del d["space_strips"][2]["face_a"][4]


def _del_source(d):
    del d["ravager_cards"][5]["source"]


CORRUPTIONS = {
    "wrong mission count": (_data_edit(lambda d: d["mission_cards"].pop()), ["mission_cards", "59", "60"]),
    "wrong ravager count per action": (
        _data_edit(lambda d: d["ravager_cards"][0]["target"].__setitem__("action", 2)),
        ["ravager_cards", "action 1", "targeted 4 times"]),
    "wrong tech colour split": (
        _data_edit(lambda d: d["technology_tiles"][3].__setitem__("colour", "gray")),
        ["technology_tiles[3] (id 3)", "colour"]),
    "unknown good": (_text_edit("cost: {resource: 1, tech: 1}", "cost: {gold: 1, tech: 1}"),
                     ["mission_cards[8] (id 8)", "cost", "unknown good 'gold'"]),
    "bad hal action colour": (
        _text_edit("top: {colour: orange, action: 1}", "top: {colour: orange, action: 3}"),
        ["hal.cards[0] (id 0).top", "action 3 is gray"]),
    "hal halves same colour": (
        _text_edit("bottom: {colour: gray, action: 4}", "bottom: {colour: orange, action: 2}"),
        ["hal.cards[0] (id 0)", "different colours"]),
    "bad boost action colour": (
        _text_edit("effect: take_ship, boost: vp_on_action, boost_arg: 1",
                   "effect: take_ship, boost: vp_on_action, boost_arg: 5"),
        ["technology_tiles[0] (id 0)", "boost_arg", "action 5 is green"]),
    "missing source": (_data_edit(_del_source), ["ravager_cards[5] (id 5)", "source"]),
    "bad source value": (_text_edit("advanced_slots: {value: 4, source: text", "advanced_slots: {value: 4, source: guess"),
                         ["board.advanced_slots", "source", "guess"]),
    "unknown mission field": (_text_edit("    kind: activation\n", "    kind: activation\n    costt: {}\n"),
                              ["mission_cards[0] (id 0)", "unknown field 'costt'"]),
    "unknown top-level key": (lambda t: t + "\nextras: 1\n", ["top level", "unknown field 'extras'"]),
    "strip with 4 hexes": (_data_edit(_drop_hex),
                           ["space_strips[2] (strip 3).face_a", "4 hexes", "expected 5"]),
    "unknown tile effect": (_text_edit("effect: draw_mission", "effect: draw_missions"),
                            ["technology_tiles[14] (id 14)", "draw_missions"]),
    "reward not allowed": (_text_edit("reward: {good: ship,", "reward: {good: debris,"),
                           ["mission_cards[0] (id 0).reward", "debris"]),
    "three tiles on a card": (
        _text_edit("tiles: {colours: [orange, gray]", "tiles: {colours: [orange, gray, green]"),
        ["mission_cards[1] (id 1).tiles", "1 or 2"]),
    "dice per colour out of range": (_text_edit("{1: 4, 2: 4, 3: 5, 4: 6}", "{1: 4, 2: 4, 3: 5, 4: 7}"),
                                     ["setup.dice_per_colour", "out of range"]),
    "display cost zero": (_text_edit("[2, 2, 1, 1, 1, 1, 1, 1]", "[2, 0, 1, 1, 1, 1, 1, 1]"),
                          ["board.display_costs", "out of range"]),
    "non-contiguous ids": (_data_edit(lambda d: d["advanced_tiles"][4].__setitem__("id", 7)),
                           ["advanced_tiles[4]", "contiguous"]),
    "damage_die without colour": (
        _data_edit(lambda d: d["ravager_cards"][6]["target"].pop("die_colour")),
        ["ravager_cards[6] (id 6).target", "die_colour"]),
    "per-card ejection with owner map": (
        _text_edit("ejection: {kind: per_card_in_space, colour: gray, vp_each: 3}",
                   "ejection: {kind: per_card_in_space, colour: gray, vp_each: 3, owner: {vp: 1}}"),
        ["mission_cards[16] (id 16).ejection", "unknown field 'owner'"]),
    "twelve activation missions": (
        _data_edit(lambda d: d["mission_cards"][12].update(
            kind="activation", cost={}, gain={"vp": 1}) or d["mission_cards"][12].pop("ejection")),
        ["mission_cards", "13 activation", "expected 12 and 8"]),
    "wrong player-aid count": (_data_edit(lambda d: d["player_aids"].pop()), ["player_aids", "expected 4"]),
    "duplicate key": (_text_edit("    cost: {}\n", "    cost: {}\n    cost: {}\n"), ["duplicate key 'cost'"]),
    "boolean as count": (_text_edit("gain: {ship: 2}", "gain: {ship: true}"),
                         ["mission_cards[0] (id 0)", "gain.ship", "integer"]),
    "not yaml": (lambda t: t + "\n  : : [\n", ["not valid YAML"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupted_copy_raises(name: str, tmp_path: Path) -> None:
    """A corrupted copy raises ComponentError whose message names the entry and the field."""
    before = DEFAULT_PATH.read_bytes()
    mutate, expected = CORRUPTIONS[name]
    p = tmp_path / "components.yaml"
    p.write_text(mutate(DEFAULT_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_components(p)
    msg = str(info.value)
    for part in expected:
        assert part in msg, (part, msg)
    assert DEFAULT_PATH.read_bytes() == before


def test_component_error_is_value_error() -> None:
    assert issubclass(ComponentError, ValueError)


def test_correction_round_trip(tmp_path: Path) -> None:
    """A user correction (editing one card in a copy) is picked up without touching anything else."""
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    old = "    reward: {good: vp, amount: 1, source: assumed, note: \"rules-notes C3\"}\n    tiles: {colours: [orange, gray]"
    new = "    reward: {good: vp, amount: 2, source: text, note: \"checked on my copy\"}\n    tiles: {colours: [orange, gray]"
    assert old in text
    p = tmp_path / "mine.yaml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    c = load_components(p)
    assert c.mission_reward_amount[1] == 2
    assert c.source["mission_cards[1].reward"] == "text"
    assert c.mission_reward_amount[5] == 1
