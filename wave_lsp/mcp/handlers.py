"""The MCP tools as plain functions over one project root, without the SDK.

Each tool answers with the same JSON as the matching command (`check --format json`,
`preview --format json`, `list --format json`, `rule --format json`) or raises `RequestError` with a
sentence the caller can act on. Every path is resolved against the root, symbolic links included,
and refused when it leads outside it; files that discovery reaches through a link to outside the
root are left out. The preview is a dry run by construction: nothing here can ask for execution.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wave_lsp.core.checking.config import Settings


#: the longest path a tool accepts (Linux's PATH_MAX): longer ones are refused before any look
MAX_PATH_CHARS = 4096


class RequestError(ValueError):
    """A tool call the caller must correct: a bad path, target, code or setting."""


class ProjectTools:
    """The tools of one MCP session, limited to `root` (resolved once, at start)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))

    # -- paths ----------------------------------------------------------------------------------
    def inside(self, raw: str, what: str = "path") -> Path:
        """`raw` (relative to the root, or absolute) as an absolute path under the root; the path
        itself is kept (a link inside the root stays a link), but where it leads must be inside
        the root too, and it must exist."""
        if not isinstance(raw, str) or not raw.strip():
            raise RequestError(f"{what} must be a non-empty path relative to the project root")
        if "\x00" in raw:
            raise RequestError(f"{what} contains a NUL character")
        if len(raw) > MAX_PATH_CHARS:
            raise RequestError(f"{what} is {len(raw):,} characters long; paths are limited to "
                               f"{MAX_PATH_CHARS:,} characters")
        path = Path(raw).expanduser()
        path = path if path.is_absolute() else self.root / path
        if not self.contains(path):
            raise RequestError(f"{what} {raw!r} is outside the project root {self.root} "
                               "(symbolic links are followed); only files under it can be read")
        if not path.exists():
            raise RequestError(f"{what} {raw!r}: no such file or directory under {self.root}")
        return Path(os.path.abspath(path))

    def contains(self, path: Path) -> bool:
        """Whether `path`, with every symbolic link followed, lies in the root."""
        real = os.path.realpath(path)
        root = str(self.root)
        return real == root or real.startswith(root.rstrip(os.sep) + os.sep)

    # -- settings -------------------------------------------------------------------------------
    def settings(self, start: Path, target: str | None, personal: bool | None) -> Settings:
        from wave_lsp.api import load_settings
        from wave_lsp.core.checking.config import SettingsError
        from wave_lsp.core.facts.profiles import TARGETS

        if target is not None and target not in TARGETS:
            raise RequestError(f"unknown target {target!r}; use one of {', '.join(TARGETS)}")
        try:
            return load_settings(start, target=target, personal=personal)
        except SettingsError as error:
            raise RequestError(f"[tool.wave-lsp] in the project: {error}") from error

    # -- the tools ------------------------------------------------------------------------------
    def check(self, paths: Sequence[str] = (".",), target: str | None = None,
              select: Sequence[str] = (), ignore: Sequence[str] = (),
              personal: bool | None = None) -> dict[str, Any]:
        """The findings for every skill file under `paths` (and SK152 in the files there that
        mention skills), as `check --format json` prints them from the root."""
        from wave_lsp.api import check_files, find_files, iter_mention_reports, with_codes
        from wave_lsp.core.checking.checker import split_by_file
        from wave_lsp.core.checking.config import SettingsError
        from wave_lsp.output import to_json

        chosen = [self.inside(raw, "path") for raw in (paths or ["."])]
        settings = self.settings(self.root, target, personal)
        try:
            settings = with_codes(settings, select=select, ignore=ignore,
                                  labels=("select", "ignore"))
        except SettingsError as error:
            raise RequestError(str(error)) from error
        # as the command line: markdown only, and nothing reached through a link out of the root
        skills, mentions = find_files(chosen)
        files = [path for path in skills
                 if self.contains(path) and (path.suffix.lower() == ".md" or path.is_dir())]
        # in this process (jobs=1): forking a server that runs an event loop is not safe
        reports = [*split_by_file(check_files(files, settings, jobs=1)),
                   *iter_mention_reports([p for p in mentions if self.contains(p)], settings)]
        return to_json(reports, settings.target, cwd=self.root, per_file=settings.auto_target)

    def preview(self, path: str, arguments: str = "", target: str | None = None,
                session_id: str | None = None, personal: bool | None = None) -> dict[str, Any]:
        """What the model receives when the skill is invoked with `arguments`, as
        `preview --format json` prints it. A dry run: no injected command is executed."""
        from wave_lsp.api import render_invocation, skill_file

        if not isinstance(arguments, str):
            raise RequestError("arguments must be one string, exactly as typed after /skill-name")
        file = skill_file(self.inside(path, "path"))
        if not self.contains(file):
            raise RequestError(f"{path!r} leads outside the project root {self.root}")
        settings = self.settings(self.root, target, personal)
        result = render_invocation(file, arguments, settings, session_id=session_id)
        if isinstance(result, str):
            raise RequestError(result)
        payload = result.to_json()
        assert payload["mode"] == "dry-run" and not any(i["executed"] for i in payload["injections"])
        return payload

    def list_skills(self, directory: str = ".", target: str | None = None,
                    personal: bool | None = None, every_runtime: bool = False) -> dict[str, Any]:
        """Every skill the runtime loads seen from `directory`, highest precedence first, as
        `list --format json` prints it from the root; `every_runtime`: where each skill loads,
        as `list --targets all --format json` prints it."""
        from wave_lsp.core.checking.loading import default_skill_rows, skill_rows

        folder = self.inside(directory, "directory")
        if not folder.is_dir():
            raise RequestError(f"directory {directory!r} is not a directory")
        settings = self.settings(folder, target, personal)
        if every_runtime:
            from wave_lsp.core.workspace.where import RUNTIMES, where_rows

            return {"version": 1, "targets": [p.name for p in RUNTIMES],
                    "skills": where_rows(RUNTIMES, folder, settings.home or Path.home(),
                                         settings.personal, self.root, confine=self.root)}
        # a SKILL.md under the root that a link leads out of it is left out, unread (issue 35)
        home = settings.home or Path.home()
        if settings.auto_target:  # each skill as the target `check` gives it (where it lives)
            target, rows = default_skill_rows(folder, home, settings.personal, self.root,
                                              confine=self.root, trust=settings.workspace_trust)
            return {"version": 1, "target": target, "skills": rows}
        return {"version": 1, "target": settings.target,
                "skills": skill_rows(settings.profile, folder, home, settings.personal,
                                     self.root, confine=self.root)}

    @staticmethod
    def explain_rule(code: str) -> dict[str, Any]:
        """What the catalog says about a rule, as `rule CODE --format json` prints it, with the
        text `rule CODE` prints."""
        from wave_lsp.core.checking.catalog import rules
        from wave_lsp.docs import describe_rule, rule_json

        catalog = rules()
        key = code.strip().upper() if isinstance(code, str) else ""
        if key not in catalog:
            raise RequestError(f"unknown rule code {code!r} (codes look like SK034; "
                               f"the catalog has {len(catalog)} rules)")
        return {"version": 1, **rule_json(catalog[key]), "text": describe_rule(catalog[key])}
