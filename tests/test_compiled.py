"""The build's compiled modules (``blackangel_env._compiled``, ``setup.py``, docs/engine_core.md "Step 2"):

* which modules run compiled, and ``BLACKANGEL_INTERPRETED=1`` loading the ``.py`` sources instead;
* the stale-extension guard: an extension built from another version of the source is not loaded;
* the interpreted path runs without Cython installed (the ``_cython_shim``);
* the Command-move search (``engine.ship_moves``) against a breadth-first reference written like the engine's
  former ``_passable`` + ``_destinations``, on positions of random games, and its refusal of a bad board.

``tests/test_compiled_equivalence.py`` plays whole games compiled and interpreted and compares every step.
"""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from blackangel_env import _compiled, _cython_shim, engine
from blackangel_env.board import black_angel_hex, distances, neighbours
from blackangel_env.constants import T_ASTEROID
from blackangel_env.engine import ship_moves
from blackangel_env.engine.space import _destinations, _neighbour_table
from blackangel_env.state import M_N_STRIPS

ROOT = Path(__file__).resolve().parents[1]
EXT = importlib.machinery.EXTENSION_SUFFIXES[0]
NAME = "blackangel_env.engine.ship_moves"


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def test_status_names_every_compiled_module():
    st = _compiled.status()
    assert tuple(st) == _compiled.COMPILED_MODULES
    # every module of the engine package (its __init__ excepted) is compiled, with the state, the action table, the
    # invariant checker, the observation plan runner and the agents' position value
    engine_dir = ROOT / "blackangel_env" / "engine"
    assert set(_compiled.COMPILED_MODULES) == {f"blackangel_env.engine.{p.stem}" for p in engine_dir.glob("*.py")
                                               if p.stem != "__init__"} | {"blackangel_env.state",
                                                                           "blackangel_env.actions",
                                                                           "blackangel_env.invariants",
                                                                           "blackangel_env.encoding_kernel",
                                                                           "blackangel_env.agents.value"}
    assert all(v == "compiled" or v.startswith("interpreted (") for v in st.values()), st
    assert set(_compiled.compiled()) == {n for n, v in st.items() if v == "compiled"}
    assert (st[NAME] == "compiled") == _compiled.is_compiled(ship_moves)
    if _compiled.compiled():
        # built together, each extension records the SHA-256 of its own source (a stale or crossed marker
        # would make the finder load that module's .py)
        assert set(st.values()) == {"compiled"}, st
    if _compiled.is_compiled(ship_moves):
        assert ship_moves.SOURCE_SHA256 == _compiled.source_sha256(_compiled.source_path(NAME))
    else:
        assert ship_moves.__file__.endswith(".py") and ship_moves.SOURCE_SHA256 is None


def test_interpreted_env_var_loads_the_sources():
    r = _python("from blackangel_env import _compiled; from blackangel_env.engine import ship_moves as m; "
                "print(_compiled.status()); print(m.__file__)", BLACKANGEL_INTERPRETED="1")
    assert r.returncode == 0, r.stderr
    assert f"'{NAME}': 'interpreted (BLACKANGEL_INTERPRETED=1)'" in r.stdout
    assert r.stdout.strip().splitlines()[-1].endswith("ship_moves.py")


def test_a_bad_interpreted_value_is_refused():
    r = _python("import blackangel_env", BLACKANGEL_INTERPRETED="yes")
    assert r.returncode != 0
    assert "ValueError: BLACKANGEL_INTERPRETED must be 0 or 1 (or unset), not 'yes'" in r.stderr


def test_the_interpreted_path_needs_no_cython():
    # sys.modules["cython"] = None makes `import cython` fail as if Cython were not installed
    code = ("import sys; sys.modules['cython'] = None\n"
            "from blackangel_env import engine, _cython_shim\n"
            "from blackangel_env.engine import ship_moves\n"
            "from blackangel_env import invariants\n"
            "assert ship_moves.cython is _cython_shim and ship_moves.__file__.endswith('.py')\n"
            "assert invariants.cython is _cython_shim and invariants.__file__.endswith('.py')\n"
            "from blackangel_env.agents import value\n"
            "assert value.cython is _cython_shim and value.__file__.endswith('.py')\n"
            "s = engine.new_game(num_players=2, seed=3)\n"
            "import random; r = random.Random(0)\n"
            "while not s.terminal:\n"
            "    engine.apply(s, r.choice(engine.legal_actions(s)))\n"
            "    invariants.check_invariants(s)\n"
            "    assert type(value.evaluate(s, 0)) is float\n"
            "print('scores', engine.final_scores(s))\n")
    r = _python(code, BLACKANGEL_INTERPRETED="1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("scores ")


def test_the_shim_types():
    c = _cython_shim
    assert c.compiled is False
    assert c.declare(c.int[4]) == [0, 0, 0, 0] and c.declare(c.int, 7) == 7
    assert c.int(3.0) == 3 and c.double(2) == 2.0 and type(c.double(2)) is float and c.bint(2) is True and repr(c.const[c.short][:]) == "cython.const short[:]"
    assert c.boundscheck(False)(len) is len and c.cfunc(len) is len and c.cclass(dict) is dict
    with pytest.raises(TypeError, match="needs a cython type"):
        c.declare("int")
    assert c.declare(dict, {"a": 1}) == {"a": 1}                  # a class (an extension type compiled): the value
    with pytest.raises(TypeError, match="not a cast"):
        c.void(1)


def _fake_package(tmp_path: Path, marker: bytes | None) -> tuple[_compiled._Finder, Path]:
    src = tmp_path / "engine" / "ship_moves.py"
    src.parent.mkdir()
    src.write_text("X = 1\n")
    ext = src.with_name("ship_moves" + EXT)
    ext.write_bytes(b"\x7fELF..." + (marker or b"") + b"...")
    return _compiled._Finder(False, str(tmp_path)), src


def test_an_extension_of_this_source_is_chosen(tmp_path, monkeypatch):
    monkeypatch.setattr(_compiled, "_reasons", {})     # the fake layout's reasons are not this process's
    src = tmp_path / "engine" / "ship_moves.py"
    src.parent.mkdir()
    src.write_text("X = 1\n")
    ext = src.with_name("ship_moves" + EXT)
    ext.write_bytes(b"\x7fELF..." + _compiled.MARKER + _compiled.source_sha256(str(src)).encode() + b";...")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = _compiled._Finder(False, str(tmp_path)).find_spec(NAME)
    assert spec.origin == str(ext)
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    spec = _compiled._Finder(True, str(tmp_path)).find_spec(NAME)       # BLACKANGEL_INTERPRETED=1
    assert spec.origin == str(src) and isinstance(spec.loader, importlib.machinery.SourceFileLoader)


@pytest.mark.parametrize("marker", [_compiled.MARKER + b"0" * 64 + b";", None], ids=["other-source", "no-marker"])
def test_a_stale_extension_falls_back_to_the_source_with_a_warning(tmp_path, marker, monkeypatch):
    monkeypatch.setattr(_compiled, "_reasons", {})
    finder, src = _fake_package(tmp_path, marker)
    with pytest.warns(RuntimeWarning, match="was built from another version of .*using the .py"):
        spec = finder.find_spec(NAME)
    assert spec.origin == str(src) and isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert _compiled._reasons[NAME] == f"interpreted (stale extension ship_moves{EXT})"
    assert finder.find_spec("blackangel_env.encoding") is None       # other modules: the usual finders


def test_source_path_refuses_other_modules():
    with pytest.raises(ValueError, match="is not one of the compiled modules"):
        _compiled.source_path("blackangel_env.encoding")


def _reference(s, p, start, rmin, rmax, existing):
    """The engine's search before ship_moves (``_passable`` + ``board.distances`` + the occupancy rule)."""
    n = s.m.item(M_N_STRIPS)
    passable = [t != T_ASTEROID for t in s.hex_terrain[:5 * n].tolist()]
    passable[black_angel_hex(n)] = True
    hs = s.hex_ship.ravel().tolist()
    out = []
    for h, d in distances(n, start, passable, rmax).items():
        ok = (rmin == 0 or (rmax >= 2 and any(passable[g] for g in neighbours(n)[start]))) if h == start \
            else d >= rmin
        a, b = hs[2 * h], hs[2 * h + 1]
        cnt, own = int(a >= 0) + int(b >= 0), int(a == p) + int(b == p)
        if existing and h == start:
            cnt, own = cnt - 1, own - 1
        if ok and cnt < 2 and own == 0:
            out.append(h)
    return sorted(out)


def test_destinations_match_the_reference_on_random_games():
    rng = np.random.default_rng(5)
    cases = nonempty = 0
    for n, advanced in ((1, False), (2, True), (3, False), (4, True)):
        s = engine.new_game(num_players=n, advanced=advanced, seed=40 + n)
        step = 0
        while not s.terminal:
            if step % 7 == 0:
                nh = 5 * s.m.item(M_N_STRIPS)
                ba = black_angel_hex(s.m.item(M_N_STRIPS))
                for p in range(max(n, 2)):
                    starts = [(h, True) for h in range(nh) if p in s.hex_ship[h].tolist()] + [(ba, False)]
                    for start, existing in starts:
                        for rmin, rmax in ((0, 0), (1, 1), (1, 2), (1, 4), (2, 6), (0, 3)):
                            got = _destinations(s, p, start, rmin, rmax, existing)
                            assert got == _reference(s, p, start, rmin, rmax, existing), (n, step, p, start)
                            cases += 1
                            nonempty += bool(got)
            legal = engine.legal_actions(s)
            engine.apply(s, legal[int(rng.integers(len(legal)))])
            step += 1
    assert cases > 1000 and nonempty > cases // 4


def test_destinations_refuses_a_bad_board():
    s = engine.new_game(num_players=2, seed=1)
    f = s._fields
    nb = _neighbour_table(s.m.item(M_N_STRIPS))
    with pytest.raises(ValueError, match="must lie on the board"):
        ship_moves.destinations(s.buf, f["hex_terrain"][1], f["hex_ship"][1], nb, 65, 0, 0, 0, 1, 2, True)
    with pytest.raises(ValueError, match="must lie on the board"):
        ship_moves.destinations(s.buf, f["hex_terrain"][1], f["hex_ship"][1], nb, 30, 0, 0, 30, 1, 2, True)
    with pytest.raises(ValueError, match="must cover 40 hexes"):
        ship_moves.destinations(s.buf, f["hex_terrain"][1], f["hex_ship"][1], nb[:60], 40, 0, 0, 0, 1, 2, True)
    with pytest.raises(ValueError, match="must cover"):
        ship_moves.destinations(s.buf, len(s.buf) - 3, f["hex_ship"][1], nb, 10, 0, 0, 0, 1, 2, True)


def test_an_edited_source_is_not_shadowed_by_its_old_extension(tmp_path):
    """End to end: a copy of the package whose ship_moves.py was edited after the build imports the .py, with a
    warning, and still plays."""
    if not _compiled.is_compiled(ship_moves):
        pytest.skip(f"ship_moves is not compiled here ({_compiled.status()[NAME]})")
    import shutil

    shutil.copytree(ROOT / "blackangel_env", tmp_path / "blackangel_env",
                    ignore=shutil.ignore_patterns("__pycache__"))
    src = tmp_path / "blackangel_env" / "engine" / "ship_moves.py"
    src.write_text(src.read_text() + "\n# edited after the build\n")
    code = ("from blackangel_env import _compiled, engine\n"
            "print(_compiled.status())\n"
            "print(engine.rollouts(engine.new_game(num_players=2, seed=1), seed=1).shape)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert "RuntimeWarning: blackangel_env.engine.ship_moves: the extension" in r.stderr
    assert "was built from another version" in r.stderr
    assert f"'{NAME}': 'interpreted (stale extension ship_moves{EXT})'" in r.stdout
    assert r.stdout.strip().endswith("(1, 2)")


def test_the_modules_reading_the_compiled_state_are_known_by_their_declarations():
    """The rule modules whose extensions read ``State``'s C fields (``Registers``, through ``_registers.pxd``) or
    were built against its layout (the C constants of ``_state_constants.pxd``) say so in their .pxd; the others
    (and modules without a .pxd) do not."""
    assert _compiled._needs_compiled_state(_compiled.source_path("blackangel_env.engine.rounds"))
    assert _compiled._needs_compiled_state(_compiled.source_path("blackangel_env.engine.phases"))
    playout = _compiled.source_path("blackangel_env.engine.playout")
    assert "_registers" not in Path(playout[:-3] + ".pxd").read_text()
    assert _compiled._needs_compiled_state(playout)             # its constants only
    assert not _compiled._needs_compiled_state(_compiled.source_path("blackangel_env.engine.ship_moves"))
    assert not _compiled._needs_compiled_state(_compiled.source_path("blackangel_env.engine.visibility"))


def test_an_edited_state_module_takes_the_modules_built_against_it_along(tmp_path):
    """End to end: a copy of the package whose state.py was edited after the build imports state.py (with a
    warning) and the source of every module whose extension reads the compiled ``State``'s C fields (loading
    those extensions against an interpreted ``State`` would fail); the others stay compiled, and the games are
    the same as this process plays them."""
    from blackangel_env import state as state_module
    if not _compiled.is_compiled(state_module):
        pytest.skip(f"the state's module is not compiled here ({_compiled.status()['blackangel_env.state']})")
    import shutil

    shutil.copytree(ROOT / "blackangel_env", tmp_path / "blackangel_env",
                    ignore=shutil.ignore_patterns("__pycache__"))
    src = tmp_path / "blackangel_env" / "state.py"
    src.write_text(src.read_text() + "\n# edited after the build\n")
    code = ("from blackangel_env import _compiled, engine\n"
            "st = _compiled.status()\n"
            "print(st['blackangel_env.state'])\n"
            "print(st['blackangel_env.engine.rounds'])\n"
            "print(st['blackangel_env.engine.ship_moves'])\n"
            "print([engine.rollouts([engine.new_game(num_players=n, seed=n)] * 3, seed=5).tolist()"
            " for n in (1, 2, 3, 4)])\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0] == f"interpreted (stale extension state{EXT})"
    assert lines[1] == ("interpreted (blackangel_env.state runs interpreted, and this extension is built against "
                        "its compiled form)")
    assert lines[2] == "compiled"
    assert lines[3] == str([engine.rollouts([engine.new_game(num_players=n, seed=n)] * 3, seed=5).tolist()
                            for n in (1, 2, 3, 4)])


def test_the_c_declarations_are_package_data():
    """An sdist carries what builds from it need: each compiled module's .pxd beside its .py (without it the
    module's C declarations are missing and the build falls back to interpreted code)."""
    try:
        import tomllib
    except ImportError:                                 # Python 3.10
        tomllib = pytest.importorskip("tomli")
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for pxd in sorted((root / "blackangel_env").rglob("*.pxd")):
        package = ".".join(pxd.parent.relative_to(root).parts)
        assert any(pxd.match(pattern) for pattern in data.get(package, [])), f"{pxd.name} not in {package}'s data"


@pytest.mark.parametrize("protocol", range(6))
def test_a_state_pickles_at_every_protocol(protocol):
    """``State``'s compiled base (``Registers``) would refuse pickle protocols 0 and 1: ``State.__reduce_ex__``
    pickles every protocol through the state's own ``__getstate__``, and the copy plays on as the original."""
    import pickle
    s = engine.new_game(num_players=3, seed=7)
    r = np.random.default_rng(0)
    for _ in range(15):
        la = engine.legal_actions(s)
        engine.apply(s, la[int(r.integers(len(la)))])
    t = pickle.loads(pickle.dumps(s, protocol=protocol))
    assert type(t) is type(s) and t == s
    c = s.copy()
    for _ in range(20):
        if c.terminal:
            break
        a = engine.legal_actions(c)[0]
        engine.apply(c, a)
        engine.apply(t, a)
    assert np.array_equal(t.buf, c.buf)


def test_vp_past_the_buffers_range_raise_and_change_nothing():
    """Compiled, a register store from C arithmetic would wrap: ``gain_vp`` checks the int16 range of the VP
    and of its source column itself (rules-notes C13 sets no upper bound; the buffer does)."""
    s = engine.new_game(num_players=2, seed=1)
    s.vp[0] = 32760
    before = s.buf.copy()
    with pytest.raises(ValueError, match="16-bit range"):
        engine.gain_vp(s, 0, 40000, 1, "test")
    assert np.array_equal(s.buf, before)
    engine.gain_vp(s, 0, 7, 1, "test")
    assert s.vp[0] == 32767


def test_the_c_constants_are_the_states_constants():
    """``_state_constants.pxd`` (the C constants the compiled rule modules index the registers with) holds every
    int constant of state.py with the same value, and each module that cimports a name from it imports the same
    name from state.py when interpreted: the compiled and interpreted engines read the same places."""
    import re

    from blackangel_env import state as state_module

    expected = {n: v for n, v in vars(state_module).items() if n.isupper() and type(v) is int}
    text = (ROOT / "blackangel_env" / "_state_constants.pxd").read_text()
    found = {m.group(1): int(m.group(2)) for m in re.finditer(r"^    (\w+) = (-?\d+)$", text, re.M)}
    should_be = "".join(f"    {n} = {v}\n" for n, v in expected.items())
    assert found == expected, f"_state_constants.pxd should declare, under its 'cdef enum:':\n{should_be}"
    for pxd in sorted((ROOT / "blackangel_env" / "engine").glob("*.pxd")):
        m = re.search(r"from blackangel_env\._state_constants cimport \(([^)]*)\)", pxd.read_text())
        if m is None:
            continue
        names = set(re.findall(r"\w+", m.group(1)))
        source = pxd.with_suffix(".py").read_text()
        guarded = re.search(r"if not cython\.compiled:.*?\n    from \.\.state import \(([^)]*)\)", source, re.S)
        assert guarded is not None, f"{pxd.name}: the .py does not import its C constants when interpreted"
        assert set(re.findall(r"\w+", guarded.group(1))) == names, pxd.name
