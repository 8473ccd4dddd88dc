"""The layout shows the design (docs/design/README.md *Layering*): sub-packages by concern with
about a dozen modules each, no module over 800 lines, no two modules with the same name, no import
cycle (imports inside functions and `TYPE_CHECKING` blocks count), layers that import only
downwards, a core that never imports the LSP layer, and no module-level state that using the
package changes."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import wave_lsp
from wave_lsp.core.checking.checker import check_file
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.features import FeatureContext, completion, hover

PACKAGE = Path(wave_lsp.__file__).resolve().parent
REPO = PACKAGE.parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every wave_lsp module `name` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in modules else base)
    return {t for t in targets if t in modules and t != name}


def test_no_import_cycles() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    sys.setrecursionlimit(10_000)
    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_core_never_imports_the_protocol_layer() -> None:
    modules = _modules()
    for name, path in modules.items():
        if name.startswith("wave_lsp.core"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                assert not any(n.split(".")[0] in ("pygls", "lsprotocol") for n in names), name
            assert not any(t.startswith("wave_lsp.lsp") for t in _imports(name, path, modules)), name


def test_module_names_are_unique_and_folders_small() -> None:
    files = [p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"]
    repeated = [name for name, count in Counter(p.stem for p in files).items() if count > 1]
    assert not repeated
    for folder in {p.parent for p in files}:
        assert len(list(folder.glob("*.py"))) <= 16, folder


def test_no_module_is_over_800_lines() -> None:
    long = {str(path.relative_to(PACKAGE)): count for path in PACKAGE.rglob("*.py")
            if (count := len(path.read_text("utf-8").splitlines())) > 800}
    assert not long


#: the layers, lowest first (docs/design/README.md *Layering*): a module imports only from its own
#: layer or a lower one. `execution` (the OS sandbox: what wave-lsp runs) knows nothing of any
#: runtime; `facts` is what each runtime does, as data; `permissions` reads commands and predicts
#: a runtime's permission decision; `invocation` is what a runtime makes of a skill it lists or
#: invokes; checking, workspace and the rules call each other (a rule asks the workspace, the
#: engine runs the rules), so they form one layer; features serve the editor; the front ends
#: (CLI, API, output, LSP, MCP) only convert
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(names.split()) for names in (
    "wave_lsp core paths parsing",
    "execution",
    "facts",
    "permissions",
    "invocation",
    "checking workspace rules",
    "features",
    "api cli cli_hints docs excerpt output lsp mcp __main__",
))

#: the imports that go upwards today, each with its reason; a new one fails the test, and so does
#: an entry here that no longer exists (the list only shrinks). Empty since session 6: the schema
#: file is read in `facts` (`schema_file`), the preview names the settings it reads as a protocol,
#: and `SkillLocation` is data of the invocation layer (`skill_location`)
UPWARD_DEBTS: set[tuple[str, str]] = set()


def _layer(module: str) -> int:
    parts = module.split(".")
    folder = parts[2] if parts[:2] == ["wave_lsp", "core"] and len(parts) > 2 else (
        parts[1] if len(parts) > 1 else parts[0])
    found = [index for index, names in enumerate(LAYERS) if folder in names]
    assert found, f"{module}: its folder {folder!r} is in no layer of LAYERS"
    return found[0]


def test_layers_import_only_downwards() -> None:
    modules = _modules()
    upward = {(name, target) for name, path in modules.items()
              for target in _imports(name, path, modules) if _layer(target) > _layer(name)}
    assert sorted(upward - UPWARD_DEBTS) == []
    assert sorted(UPWARD_DEBTS - upward) == []  # a debt paid: take it off the list


def _state(module: ModuleType) -> dict[str, object]:
    """The module's data: its globals that are not functions, classes, modules or constants of
    immutable types, as a comparable picture."""
    picture: dict[str, object] = {}
    for key, value in vars(module).items():
        if key.startswith("__") or callable(value) or isinstance(value, ModuleType):
            continue
        if isinstance(value, str | int | float | bool | bytes | tuple | frozenset | type(None)):
            continue
        picture[key] = repr(value)
    return picture


def test_using_the_package_changes_no_module_state(tmp_path: Path) -> None:
    """Checks, completion and hover on the examples leave every module's data as it was: what the
    package remembers lives in a session object that its owner passes in."""
    modules = [importlib.import_module(info.name)
               for info in pkgutil.walk_packages(wave_lsp.__path__, "wave_lsp.")
               if not info.name.startswith("wave_lsp.lsp") and info.name != "wave_lsp.__main__"]
    before = {module.__name__: _state(module) for module in modules}
    examples = sorted((REPO / "examples" / "skills").rglob("SKILL.md"))
    for target in ("wave", "claude-code"):
        settings = Settings.for_target(target, home=tmp_path)
        for path in examples:
            report = check_file(path, settings)
            text = path.read_text("utf-8")
            context = FeatureContext.for_text(text, path, settings)
            completion.complete(context, text.index("---", 3))
            hover.hover(context, text.index("name"))
            assert report.document is not None
    after = {module.__name__: _state(module) for module in modules}
    assert after == before
