"""Settings that change what is reported: target, rule selection, severity overrides.

Implements docs/design/rules.md *Configuration and suppression* (the part that is not inline comments): the
same `Settings` object is built from CLI flags, `[tool.wave-lsp]` in `pyproject.toml` and the LSP
`wave` configuration section. Codes in `select`/`ignore` may be prefixes (`SK02` = SK020-SK029) or
`ALL`; a severity override of `off` ignores the rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wave_lsp.core.checking.catalog import Severity, rules
from wave_lsp.core.facts.profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    TARGETS,
    TRUST_CHOICES,
    RuntimeProfile,
    with_workspace_trust,
)

if TYPE_CHECKING:
    from wave_lsp.core.workspace.location import SkillLocation

OFF = "off"


class SettingsError(ValueError):
    """A setting that cannot be understood (the CLI exits 2; the server logs and uses defaults)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The target and rule selection of a run (defaults, pyproject.toml, flags or the editor)."""

    profile: RuntimeProfile = DEFAULT_PROFILE  #: the runtime the checks model (the target)
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    #: code -> Severity, or "off"
    severity: Mapping[str, Severity | str] = field(default_factory=dict)
    #: look at personal roots (~/.wave/skills, ~/.wave/settings.json, ...)
    personal: bool = True
    home: Path | None = None
    #: more settings files whose `permissions` the permission engine reads (`wave.settingsFiles`)
    settings_files: tuple[str, ...] = ()
    #: no target was configured (no `--target`, `wave.target` or `[tool.wave-lsp] target`): each
    #: file is checked for the target chosen from where it lives (`for_file`); the front ends set
    #: it, the core's default is the explicit `wave`
    auto_target: bool = False
    #: `for_file` chose this target from where the file lives (none was configured): the
    #: checker then applies what is decided only with no target configured (`checker.Target`),
    #: whichever surface resolved the file's settings first (the language server does)
    chosen_for_file: bool = False
    #: what wave-lsp assumes about workspace trust (Gemini CLI loads workspace skills only in a
    #: trusted folder): "auto" reads the runtime's trust file, "trusted" or "untrusted" decide
    #: for every folder (`workspace-trust`, `--workspace-trust`, `wave.workspaceTrust`)
    workspace_trust: str = "auto"

    def __post_init__(self) -> None:
        if self.workspace_trust not in TRUST_CHOICES:
            raise SettingsError(f"workspace trust must be one of {', '.join(TRUST_CHOICES)}, "
                                f"not {self.workspace_trust!r}")
        # the profile as read with this choice (the same object for "auto")
        object.__setattr__(self, "profile", with_workspace_trust(self.profile,
                                                                 self.workspace_trust))

    @classmethod
    def for_target(cls, target: str, **values: Any) -> Settings:
        """Settings for the built-in target named `target` (SettingsError when unknown)."""
        return cls(profile=parse_target(target), **values)

    @property
    def target(self) -> str:
        return self.profile.name

    def enabled(self, code: str) -> bool:
        if self.severity.get(code) == OFF:
            return False
        if any(_matches(code, pattern) for pattern in self.ignore):
            return False
        return any(_matches(code, pattern) for pattern in self.select)

    def severity_of(self, code: str, default: Severity) -> Severity:
        override = self.severity.get(code)
        return override if isinstance(override, Severity) else default

    def for_file(self, location: SkillLocation) -> Settings:
        """The settings one file is checked with: these, or with `auto_target` the target chosen
        from where the file lives (docs/design/rules.md *The default target*)."""
        if not self.auto_target:
            return self
        from wave_lsp.core.workspace.applies import target_for

        return replace(self, profile=target_for(location), auto_target=False,
                       chosen_for_file=True)

    def merged(self, **changes: Any) -> Settings:
        """A copy with the given values (None keeps the current one); `target=` names a profile
        (and ends `auto_target`)."""
        target = changes.pop("target", None)
        if target is not None:
            changes["profile"] = target if isinstance(target, RuntimeProfile) else parse_target(target)
            changes["auto_target"] = False
            changes["chosen_for_file"] = False
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _matches(code: str, pattern: str) -> bool:
    return pattern == "ALL" or code.startswith(pattern)


def parse_target(value: str) -> RuntimeProfile:
    found = PROFILES.get(value)
    if found is None:
        raise SettingsError(f"unknown target {value!r}; choose one of {', '.join(TARGETS)}")
    return found


def parse_codes(values: Iterable[str], what: str) -> tuple[str, ...]:
    """Split comma-separated codes and check that each names (a prefix of) a known rule."""
    codes: list[str] = []
    for value in values:
        for part in str(value).split(","):
            code = part.strip().upper()
            if not code:
                continue
            if code != "ALL" and not any(known.startswith(code) for known in rules()):
                raise SettingsError(f"{what}: {part.strip()!r} is not a rule code (e.g. SK054)")
            codes.append(code)
    return tuple(codes)


def parse_severity_overrides(items: Mapping[str, Any] | Iterable[str]) -> dict[str, Severity | str]:
    """`{"SK054": "warning"}` or `["SK054=warning"]` -> overrides."""
    pairs: list[tuple[str, Any]] = []
    if isinstance(items, Mapping):
        pairs = list(items.items())
    else:
        for item in items:
            code, sep, level = str(item).partition("=")
            if not sep:
                raise SettingsError(f"--severity expects CODE=LEVEL, got {item!r}")
            pairs.append((code, level))
    overrides: dict[str, Severity | str] = {}
    for code, level in pairs:
        code = str(code).strip().upper()
        if code not in rules():
            raise SettingsError(f"severity override: {code!r} is not a rule code")
        text = str(level).strip().lower()
        if text in (OFF, "none", "ignore", "false"):
            overrides[code] = OFF
            continue
        try:
            overrides[code] = Severity.parse(text)
        except KeyError:
            raise SettingsError(
                f"severity override for {code}: {level!r} is not error, warning, "
                "information, hint or off"
            ) from None
    return overrides


def load_pyproject(start: Path) -> tuple[dict[str, Any], Path | None]:
    """`[tool.wave-lsp]` of the nearest pyproject.toml at or above `start`."""
    start = start.resolve()
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            import tomllib  # only when there is a pyproject.toml to read

            try:
                data = tomllib.loads(candidate.read_text("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
                raise SettingsError(f"{candidate}: {error}") from error
            except RecursionError:  # tomllib recurses once per nested array or inline table
                raise SettingsError(f"{candidate}: nests arrays or tables too deeply to be "
                                    "read (Python's recursion limit)") from None
            section = data.get("tool", {}).get("wave-lsp")
            if section is not None:
                return dict(section), candidate
    return {}, None


def settings_from_mapping(data: Mapping[str, Any], base: Settings | None = None) -> Settings:
    """Settings from `[tool.wave-lsp]` or the LSP `wave` section (unknown keys are ignored)."""
    settings = base or Settings()
    changes: dict[str, Any] = {}
    if data.get("target") not in (None, ""):  # empty: the target that fits each file
        changes["target"] = parse_target(str(data["target"]))
    if "select" in data:
        changes["select"] = parse_codes(_as_list(data["select"]), "select")
    if "ignore" in data:
        changes["ignore"] = parse_codes(_as_list(data["ignore"]), "ignore")
    rules_setting = data.get("rules", data.get("severity"))
    if rules_setting is not None:
        if not isinstance(rules_setting, Mapping):
            raise SettingsError("rules/severity must be a table of CODE = level")
        changes["severity"] = {**settings.severity, **parse_severity_overrides(rules_setting)}
    if "settingsFiles" in data or "settings-files" in data:
        files = data.get("settingsFiles", data.get("settings-files"))
        if not isinstance(files, list) or not all(isinstance(item, str) for item in files):
            raise SettingsError("settingsFiles must be a list of paths")
        changes["settings_files"] = tuple(files)
    if "personal" in data or "personalSkills" in data:
        changes["personal"] = bool(data.get("personal", data.get("personalSkills")))
    trust = data.get("workspaceTrust", data.get("workspace-trust"))
    if trust not in (None, ""):
        if trust not in TRUST_CHOICES:
            raise SettingsError(f"workspace-trust must be one of {', '.join(TRUST_CHOICES)}, "
                                f"not {trust!r}")
        changes["workspace_trust"] = str(trust)
    return settings.merged(**changes)


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [str(v) for v in value]
    raise SettingsError(f"expected a list of codes, got {value!r}")


#: the keys `[tool.wave-lsp]` understands (`settings_from_mapping`)
KNOWN_KEYS = ("target", "select", "ignore", "rules", "severity", "settingsFiles", "settings-files",
              "personal", "personalSkills", "workspace-trust", "workspaceTrust")


def unknown_keys(data: Mapping[str, Any]) -> list[str]:
    """A sentence for every key of `[tool.wave-lsp]` that is not a setting, with the setting it
    most likely means."""
    problems = []
    for key in data:
        if key in KNOWN_KEYS:
            continue
        from difflib import get_close_matches

        close = get_close_matches(str(key), KNOWN_KEYS, n=1, cutoff=0.6)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        problems.append(f"unknown key `{key}` in [tool.wave-lsp] (ignored){hint}")
    return problems
