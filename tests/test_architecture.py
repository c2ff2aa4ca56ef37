"""Imports flow one way (docs/architecture.md): every import of the packages is read with ``ast`` (those inside
functions included) and checked against the layer order, for cycles, and for private names taken from another
module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("blackangel_env", "benchmarks")
# the names the agents and the training code had before they became subpackages of blackangel_env; they stay
# importable from a source checkout only, as deprecated aliases (agents/, training/: not in the wheel)
OLD_NAMES = ("agents", "training")

# blackangel_env's modules above the rules engine; every other module of blackangel_env (the engine package
# included) is the rules engine and its data ("core").
VIEWS = {"blackangel_env.encoding", "blackangel_env.encoding_kernel", "blackangel_env.render", "blackangel_env.explain"}
ADAPTERS = {"blackangel_env", "blackangel_env.pettingzoo_env", "blackangel_env.gym_env", "blackangel_env.vector"}
APPLICATION = {"blackangel_env.cli", "blackangel_env.bench", "blackangel_env.docgen"}

# layer -> the layers its modules may import (its own included)
ALLOWED = {
    "core": {"core"},
    "views": {"core", "views"},
    "adapters": {"core", "views", "adapters"},
    "agents": {"core", "views", "agents"},
    "arena": {"core", "views", "agents", "arena"},
    "training": {"core", "views", "adapters", "agents", "arena", "training"},
    "application": {"core", "views", "adapters", "agents", "arena", "training", "application"},
}

# The one import cycle inside the rules engine that predates this test (the engine package's own graph is checked
# by tests/test_engine_layout.py). Any other cycle, or a new one, fails.
KNOWN_ENGINE_CYCLES = [{"blackangel_env.invariants", "blackangel_env.state"}]


def layer(module: str) -> str:
    top = module.split(".")[0]
    if top == "benchmarks" or module in APPLICATION:
        return "application"
    if module == "blackangel_env.training" or module.startswith("blackangel_env.training."):
        return "training"
    if module == "blackangel_env.agents.arena":
        return "arena"
    if module == "blackangel_env.agents" or module.startswith("blackangel_env.agents."):
        return "agents"
    if module in ADAPTERS:
        return "adapters"
    if module in VIEWS:
        return "views"
    return "core"


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for f in sorted((root / pkg).rglob("*.py")):
            parts = f.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[tuple[str, str | None]]]:
    """module -> {(imported module of the packages, the name taken from it or None)}."""

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    out: dict[str, set[tuple[str, str | None]]] = {}
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    t = resolve(a.name)
                    if t:
                        found.add((t, None))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                    src = ".".join(base + ([node.module] if node.module else []))
                else:
                    src = node.module or ""
                for a in node.names:
                    sub = f"{src}.{a.name}"
                    if sub in mods:                       # "from package import module"
                        found.add((sub, None))
                    else:
                        t = resolve(src)
                        if t:
                            found.add((t, a.name))
        out[m] = {(t, name) for t, name in found if t != m}
    return out


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


MODS = modules()
IMPORTS = imports(MODS)
EDGES = {m: {t for t, _ in ts} for m, ts in IMPORTS.items()}


def test_the_checker_reads_the_imports_it_must_judge():
    assert {"blackangel_env.agents.arena", "blackangel_env.agents.codes", "blackangel_env.training.agent_codes",
            "blackangel_env.cli"} <= set(MODS)
    assert ("blackangel_env.agents.codes", "make_agent") in IMPORTS["blackangel_env.agents"]   # "from .codes import"
    assert ("blackangel_env.training.agent_codes", None) in IMPORTS["blackangel_env.cli"]   # "from .training import"
    assert "blackangel_env.engine" in EDGES["blackangel_env.agents.arena"]         # "from blackangel_env import engine"
    assert layer("blackangel_env.engine.legal") == "core" and layer("blackangel_env") == "adapters"
    assert layer("blackangel_env.agents") == "agents" and layer("blackangel_env.agents.arena") == "arena"
    assert layer("blackangel_env.training") == "training" and layer("blackangel_env.training.policies") == "training"
    assert layer("blackangel_env.agents_x") == "core"          # a prefix of the name is not the package
    # the checks catch what they look for
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert "training" not in ALLOWED[layer("blackangel_env.agents.greedy")]


def test_imports_follow_the_layers():
    bad = [f"{m} ({layer(m)}) imports {t} ({layer(t)})" for m, ts in sorted(EDGES.items()) for t in sorted(ts)
           if layer(t) not in ALLOWED[layer(m)]]
    assert not bad, "imports against the layer order (docs/architecture.md):\n" + "\n".join(bad)


def test_the_installed_packages_do_not_import_the_repository_scripts():
    bad = [f"{m} imports {t}" for m, ts in sorted(EDGES.items()) for t in sorted(ts)
           if t.split(".")[0] == "benchmarks" and m.split(".")[0] != "benchmarks"]
    assert not bad, "benchmarks/ is not part of the installed package:\n" + "\n".join(bad)


def test_the_packages_do_not_import_the_old_names():
    """``agents`` and ``training`` are the repository's deprecated aliases (not installed): an import of them is
    not resolved by ``imports`` (they are not among PACKAGES), so it is looked for here."""
    bad = []
    for m, f in sorted(MODS.items()):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            bad += [f"{m} imports {n}" for n in names if n.split(".")[0] in OLD_NAMES]
    assert not bad, "import blackangel_env.agents / blackangel_env.training instead:\n" + "\n".join(bad)


def test_no_import_cycles():
    found = [c for c in cycles(EDGES) if not any(c <= known for known in KNOWN_ENGINE_CYCLES)]
    assert not found, f"import cycles: {found}"


def test_no_private_names_taken_from_another_module():
    bad = [f"{m} takes {name} from {t}" for m, ts in sorted(IMPORTS.items()) for t, name in sorted(ts, key=str)
           if name and name.startswith("_") and not name.endswith("__") and layer(m) in ("agents", "arena", "training", "application")]
    assert not bad, "\n".join(bad)


def test_the_command_line_does_not_load_torch():
    code = ("import sys, blackangel_env.cli, blackangel_env.agents.arena\n"
            "heavy = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'ray') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
