# tests/oracle/runtimes/base.py
"""The contract between the differential driver and one runtime adapter (tests/oracle/README.md)."""
from __future__ import annotations
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

@dataclass(frozen=True)
class Invocation:
    skill: str                 #: the name as typed after `/` (or `$` for Codex)
    args: str | None           #: the argument text, None for none
    mode: str                  #: "slash" (the user types it) or "tool" (the model calls the runtime's skill tool)

@dataclass
class Outcome:
    kind: str                  #: "rendered" | "refused" | "not-found" | "unsupported" | "missing"
    text: str = ""             #: the rendered text exactly as the model receives it, or the refusal message
    exact: bool = True         #: False when only the kind can be compared

@dataclass
class Observation:
    """What one runtime did with one probe tree."""
    listing: dict[str, str] | None        #: skill name -> its listing entry exactly as sent to the model (None: no listing observed)
    outcomes: dict[str, Outcome]          #: by aspect key "slash#0", "tool#1", … (index into the probe's invocations)
    notes: list[str] = field(default_factory=list)   #: why something could not be observed (exit codes, stderr excerpts)

@dataclass(frozen=True)
class Layout:
    """Where this runtime reads skills: paths relative to the project root / HOME."""
    project_skills: str        #: e.g. ".claude/skills", ".wave/skills", ".agents/skills", ".gemini/skills", ".opencode/skills", ".github/skills"
    personal_skills: str | None  #: e.g. ".claude/skills" under HOME (None: the harness never places personal skills)

class RuntimeAdapter(Protocol):
    name: str                  #: "claude-code" | "wave" | "codex" | "gemini-cli" | "opencode" | "copilot-cli"
    target: str                #: the wave-lsp --target it is compared with
    version: str               #: the pinned version (or commit), written only in the adapter
    layout: Layout
    modes: tuple[str, ...]     #: the invocation modes this runtime supports headless
    def executable(self) -> Path | None: ...        #: the cached install, None when absent (never installs)
    def install(self) -> Path: ...                  #: install into the cache (~/.cache/wave-lsp/oracle/<name>-<version>, $WAVE_LSP_ORACLE_CACHE overrides)
    def observe(self, project: Path, home: Path, cwd: Path,
                invocations: list[Invocation]) -> Observation: ...
