"""Facts about the upstream repositories of the corpus skills, for labelling only.

The labels judge a finding against the skill *as distributed*: the upstream repository at the
commit SOURCES.tsv names. `trees(dir)` reads file lists made with
`git ls-tree -r --name-only <commit>` of each repository (one `<owner>__<repo>.txt` per repository,
not committed: the repositories are public, see SOURCES.tsv). Nothing here is used by wave-lsp.
"""

from __future__ import annotations

import csv
import json
import posixpath
import re
import subprocess
from functools import cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real"
TREES = Path("/tmp/trees")
MIRRORS = Path("/work/.mirror")


@cache
def sources() -> dict[str, tuple[str, str, str]]:
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8") as handle:
        return {row["corpus_dir"]: (row["repo"], row["commit"], row["path_in_repo"])
                for row in csv.DictReader(handle, delimiter="\t")}


@cache
def tree(repo: str) -> tuple[frozenset[str], frozenset[str]]:
    files = frozenset((TREES / f"{repo.replace('/', '__')}.txt").read_text().splitlines())
    dirs = set()
    for name in files:
        while "/" in name:
            name = name.rsplit("/", 1)[0]
            dirs.add(name)
    return files, frozenset(dirs)


def skill_dir(skill: str) -> str:
    return posixpath.dirname(sources()[skill][2])


def clean(text: str) -> str:
    text = text.strip().strip("`'\"<>()")
    text = re.sub(r"^(\{baseDir\}|\$\{CLAUDE_SKILL_DIR\}|\$\{CLAUDE_PLUGIN_ROOT\}|"
                  r"\$\{WAVE_SKILL_DIR\})/", "", text)
    return text.split("#")[0].split("?")[0]


def resolve(skill: str, text: str) -> str | None:
    """The upstream path `text` names relative to the skill folder or any folder above it up to
    the repository root (the plugin root, the project root), or None."""
    repo, _, _ = sources()[skill]
    files, dirs = tree(repo)
    path = clean(text)
    if not path:
        return None
    if path.startswith("/"):
        path = path.lstrip("/")
        bases = [""]
    else:
        bases = []
        base = skill_dir(skill)
        while True:
            bases.append(base)
            if not base:
                break
            base = posixpath.dirname(base)
    for base in bases:
        candidate = posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)
        if candidate in files or candidate in dirs:
            return candidate
    return None


def _show(repo: str, commit: str, path: str) -> str | None:
    git = MIRRORS / repo.replace("/", "+") / "repo"
    result = subprocess.run(["git", "-C", str(git), "show", f"{commit}:{path}"],
                            capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


@cache
def plugin_of(skill: str) -> str | None:
    """The upstream plugin root holding the skill: an ancestor with `.claude-plugin/plugin.json`,
    or a marketplace entry whose source holds it; None when the skill is not in a plugin."""
    repo, commit, _ = sources()[skill]
    files, _ = tree(repo)
    base = skill_dir(skill)
    while base:
        base = posixpath.dirname(base)
        if posixpath.join(base, ".claude-plugin/plugin.json") in files:
            return base or "."
    text = _show(repo, commit, ".claude-plugin/marketplace.json")
    if text:
        try:
            plugins = json.loads(text).get("plugins", [])
        except (ValueError, AttributeError):
            plugins = []
        for plugin in plugins:
            source = plugin.get("source") if isinstance(plugin, dict) else None
            if isinstance(source, str):
                root = posixpath.normpath(source.lstrip("./") or ".")
                if root == "." or skill_dir(skill).startswith(root + "/"):
                    return root
    return None


@cache
def listed_skill(skill: str) -> bool:
    """A plugin or marketplace manifest upstream names the skill's folder in a `skills` list."""
    repo, _, _ = sources()[skill]
    folder = skill_dir(skill)
    manifests = json.loads((TREES / f"{repo.replace('/', '__')}.manifests.json").read_text())
    for path, text in manifests.items():
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        root = posixpath.dirname(posixpath.dirname(path))
        entries = [(root, data)] + [
            (posixpath.join(root, p["source"]) if isinstance(p.get("source"), str) else root, p)
            for p in data.get("plugins") or [] if isinstance(p, dict)]
        for base, entry in entries:
            for item in entry.get("skills") or []:
                if isinstance(item, str) and posixpath.normpath(posixpath.join(base, item)) == folder:
                    return True
    return False
