"""Checking files on disk: safe reading, then the engine. Used by `wave-lsp check`.

Bad input gets a finding, never an exception (docs/design/product.md *Contract details*): a directory, a FIFO
or a device named SKILL.md is reported without being opened, an unreadable file says why, invalid
UTF-8 is decoded with replacement characters and reported as SK003 at the first bad byte.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from wave_lsp.core.checking.config import Settings
from wave_lsp.core.checking.engine import check_document, finalize, reported
from wave_lsp.core.checking.findings import Finding
from wave_lsp.core.parsing.document import SkillDocument
from wave_lsp.core.parsing.source import DecodeResult, decode, strip_bom
from wave_lsp.core.parsing.text import Span
from wave_lsp.core.workspace.location import SkillLocation, locate

#: files larger than this are not read at all (a SKILL.md is a few KiB; SK111 starts at 64 KiB)
MAX_READ_BYTES = 32 * 1024 * 1024


@dataclass(slots=True)
class FileReport:
    path: Path
    findings: list[Finding] = field(default_factory=list)
    document: SkillDocument | None = None
    skill: str | None = None
    location: SkillLocation | None = None


def read_skill_file(path: Path) -> tuple[bytes | None, str | None]:
    """The file's bytes, or None and a sentence saying why it cannot be read."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None, "does not exist"
    except OSError as error:
        return None, f"cannot be examined ({error.strerror or error})"
    if stat.S_ISDIR(info.st_mode):
        return None, "is a directory, not a file"
    if stat.S_ISFIFO(info.st_mode):
        return None, "is a named pipe (FIFO), not a regular file; it was not opened"
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        return None, "is a device, not a regular file; it was not opened"
    if stat.S_ISSOCK(info.st_mode):
        return None, "is a socket, not a regular file; it was not opened"
    if not stat.S_ISREG(info.st_mode):
        return None, "is not a regular file; it was not opened"
    if info.st_size > MAX_READ_BYTES:
        return None, (f"is {info.st_size / 1048576:,.1f} MiB, too large to be a skill "
                      f"(not read beyond {MAX_READ_BYTES // 1048576} MiB)")
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_READ_BYTES + 1), None
    except PermissionError:
        return None, "cannot be read: permission denied"
    except OSError as error:
        return None, f"cannot be read ({error.strerror or error})"


def load_document(path: Path) -> SkillDocument | None:
    """The parsed file, or None when it cannot be read (see `read_skill_file`)."""
    data, _problem = read_skill_file(path)
    return None if data is None else SkillDocument.from_decoded(decode(data))


def check_file(path: Path, settings: Settings | None = None, *, text: str | None = None,
               bom: bool = False, strict: bool = False) -> FileReport:
    """Check one SKILL.md on disk, or `text` as the content of `path` (an editor's buffer; `bom`
    says the file on disk starts with a byte-order mark that the editor does not show)."""
    settings = settings or Settings()
    location = locate(path, home=settings.home)
    report = FileReport(path=path, location=location)
    if text is None:
        data, problem = read_skill_file(path)
        if data is None:
            report.findings = _unreadable(path, problem or "cannot be read", settings)
            return report
        decoded = decode(data)
        document = _known(path, decoded) or SkillDocument.from_decoded(decoded)
    else:
        decoded = strip_bom(DecodeResult(text=text))
        decoded.bom = decoded.bom or bom
        document = SkillDocument.from_decoded(decoded)
    report.document = document
    report.findings = check_document(document, location, settings, strict=strict)
    name = document.value("name")
    report.skill = name.strip() if isinstance(name, str) and name.strip() else location.dir_name
    return report


def _known(path: Path, decoded: DecodeResult) -> SkillDocument | None:
    if decoded.invalid_byte_offset is not None or decoded.bom:
        return None
    from wave_lsp.core.workspace.runtime_view import known_document

    return known_document(path, decoded.text)


def _unreadable(path: Path, problem: str, settings: Settings) -> list[Finding]:
    """A file that cannot be analysed still gets a finding (the SK003 family: unreadable input)."""
    if not reported("SK003", settings):
        return []
    document = SkillDocument.from_text("")
    finding = Finding(code="SK003", message=f"`{path.name}` {problem}.", span=Span(0, 0))
    return finalize([finding], document, settings)


def split_by_file(reports: list[FileReport]) -> list[FileReport]:
    """Findings about other files of a skill (resources) moved into reports of their own, right
    after the SKILL.md's report, so that every finding is listed under the file it is about."""
    result: list[FileReport] = []
    for report in reports:
        others: dict[str, FileReport] = {}
        own = []
        for finding in report.findings:
            if finding.path is None:
                own.append(finding)
                continue
            other = others.setdefault(finding.path, FileReport(Path(finding.path), skill=report.skill))
            other.findings.append(finding)
        report.findings = own
        result.append(report)
        result.extend(others.values())
    return result
