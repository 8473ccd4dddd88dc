"""What a rule sees: the parsed document, where it lives, the target and the settings.

Shared, lazily computed facts (schema issues, field nodes) live here so that no rule re-parses or
re-validates what another rule already looked at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wave_lsp.core.checking import schema
from wave_lsp.core.checking.catalog import Severity
from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.findings import Finding, Fix, Related, TextEdit
from wave_lsp.core.checking.schema import SchemaIssue
from wave_lsp.core.facts.profiles import RuntimeProfile
from wave_lsp.core.parsing.document import FieldEntry, SkillDocument
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.parsing.yamltree import YamlNode
from wave_lsp.core.workspace.disk_view import DiskView
from wave_lsp.core.workspace.location import SkillLocation
from wave_lsp.core.workspace.session import WorkspaceSession

if TYPE_CHECKING:
    from wave_lsp.core.invocation.preview import Plan
    from wave_lsp.core.workspace.snapshot import ProjectSnapshot


@dataclass(slots=True)
class LocatedIssue:
    """A schema issue with the node of the frontmatter it is about."""

    issue: SchemaIssue
    node: YamlNode  #: the node the issue is about (a key node for `on_key` issues)


@dataclass
class CheckContext:
    """What a rule looks at for one document; facts that rules share are computed once."""

    document: SkillDocument
    location: SkillLocation
    settings: Settings = field(default_factory=Settings)
    #: the owner of what is known about the disk (a fresh one: nothing is remembered)
    session: WorkspaceSession = field(default_factory=WorkspaceSession)

    @property
    def profile(self) -> RuntimeProfile:
        return self.settings.profile

    @property
    def text(self) -> str:
        return self.document.text

    # -- findings --------------------------------------------------------------------------
    def finding(self, code: str, span: Span, message: str, *, level: Severity | None = None,
                related: list[Related] | None = None, fixes: list[Fix] | None = None,
                **data: Any) -> Finding:
        return Finding(code=code, message=message, span=span, level=level,
                       related=related or [], fixes=fixes or [], data=data)

    def replace_fix(self, title: str, span: Span, new_text: str, preferred: bool = True) -> Fix:
        return Fix(title=title, edits=[TextEdit(span, new_text)], preferred=preferred)

    # -- fields ----------------------------------------------------------------------------
    def field(self, name: str) -> FieldEntry | None:
        return self.document.fields.get(name)

    def value(self, name: str, default: Any = None) -> Any:
        return self.document.value(name, default)

    def reads(self, name: str) -> bool:
        spec = schema.field_spec(name)
        return spec is not None and spec.read_by(self.profile)

    @cached_property
    def schema_issues(self) -> list[LocatedIssue]:
        """Every schema issue of every known field, located on its node."""
        located: list[LocatedIssue] = []
        for name, entry in self.document.fields.items():
            if schema.field_spec(name) is None or not _convertible(entry.node):
                continue
            for issue in schema.validate_field(name, entry.value):
                located.append(LocatedIssue(issue, self._locate(entry, issue)))
        return located

    @cached_property
    def real_skill_dir(self) -> str | None:
        """The real path of the skill's folder (`os.path.realpath`), asked once per check: the
        workspace rules and SK114 need it (None when the document has no folder)."""
        folder = self.location.skill_dir
        return None if folder is None else self.session.real_folder(folder)

    @cached_property
    def project(self) -> ProjectSnapshot | None:
        """What the target loads from this document's project (None outside every project)."""
        location = self.location
        if location.path is None or location.scope == "workspace":
            return None
        home = self.settings.home or Path.home()
        return self.session.project(self.profile, location.project_root, home,
                                    self.settings.personal)

    @cached_property
    def disk(self) -> DiskView:
        """The files and folders this run looks at, each folder listed once (cached by the
        session while the folder is unchanged)."""
        view = DiskView(self.session.listings)
        folder, real = self.location.skill_dir, self.real_skill_dir
        if folder is not None and real is not None:
            view.knows_real(folder, real)
        return view

    @cached_property
    def injection_plan(self) -> Plan:
        """Every injection with its permission decision (dry-run, no arguments)."""
        from wave_lsp.core.invocation.preview import plan_injections

        return plan_injections(self.document, self.location, self.settings)

    def issues_for(self, code: str) -> list[LocatedIssue]:
        return [item for item in self.schema_issues if item.issue.code == code]

    def _locate(self, entry: FieldEntry, issue: SchemaIssue) -> YamlNode:
        node = node_at(entry.node, issue.path)
        if issue.on_key and node.kind == "mapping":
            for key_node, _ in node.pairs:
                if key_node.kind == "scalar" and key_node.text == str(issue.value):
                    return key_node
        return node

    def entry_span(self, entry: FieldEntry) -> Span:
        """The value's span, or the key's when the value is empty."""
        span = entry.node.content_span
        return span if len(span) else entry.key.span

    # -- body ------------------------------------------------------------------------------
    @property
    def body_span(self) -> Span:
        return Span(self.document.body_offset, len(self.document.text))


def node_at(node: YamlNode, path: tuple[str | int, ...]) -> YamlNode:
    """The node at a JSON path below `node` (as far as the path resolves)."""
    for step in path:
        if node.kind == "mapping":
            child = next((v for k, v in reversed(node.pairs)
                          if k.kind == "scalar" and k.text == str(step)), None)
        elif node.kind == "sequence" and isinstance(step, int) and step < len(node.items):
            child = node.items[step]
        else:
            child = None
        if child is None:
            break
        node = child
    return node


def _convertible(node: YamlNode) -> bool:
    """Aliases are reported by SK023 and never expanded: do not validate through them."""
    return not any(n.kind == "alias" for n in node.walk())
