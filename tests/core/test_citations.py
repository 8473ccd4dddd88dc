"""Every design document the code cites exists in the repository, with the cited section: a
`docs/…md` path, a `§N.N` of runtime-facts.md and a `*Heading*` of product.md or rules.md."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"(docs/(?:design|rules)/[\w.-]+\.md)"  # the document
                      r"((?:[ \t]+\*[^*\n]+\*)?)"  # a *Heading*
                      r"((?:,?[ \t]*(?:and[ \t]+)?§\d+(?:\.\d+)*)*)")  # § sections
SOURCES = [*sorted((REPO / "wave_lsp").rglob("*.py")), *sorted((REPO / "tests").rglob("*.py")),
           *sorted((REPO / "benchmarks").glob("*.py")), REPO / "wave_lsp" / "data" / "rules.toml"]


def _headings(document: Path) -> str:
    return "\n".join(line for line in document.read_text("utf-8").splitlines()
                     if line.startswith("#"))


def test_cited_documents_and_sections_exist() -> None:
    missing: list[str] = []
    cited = 0
    for source in SOURCES:
        for match in CITATION.finditer(source.read_text("utf-8")):
            cited += 1
            document = REPO / match.group(1)
            where = f"{source.relative_to(REPO)}: {match.group(0).strip()}"
            if not document.exists():
                missing.append(where)
                continue
            headings = _headings(document)
            heading = match.group(2).strip().strip("*")
            if heading and heading not in headings:
                missing.append(f"{where} (no heading `{heading}`)")
            for section in re.findall(r"§(\d+(?:\.\d+)*)", match.group(3)):
                if not re.search(rf"^#+\s*§?{re.escape(section)}[\s.:]", headings, re.M):
                    missing.append(f"{where} (no section §{section})")
    assert cited > 30
    assert not missing, "\n".join(missing)


def test_design_documents_cite_only_what_the_repository_holds() -> None:
    """A design document or benchmark report names no path outside the repository (the shared
    corpora and the original catalog are design inputs a clone does not have): it cites their
    sources, tests/data/corpus-sources.tsv and tests/data/labelled-2-sources.tsv, instead."""
    documents = [*sorted((REPO / "docs").rglob("*.md")), *sorted((REPO / "benchmarks").rglob("*.md"))]
    outside = [f"{document.relative_to(REPO)}:{number}: {line.strip()}"
               for document in documents
               for number, line in enumerate(document.read_text("utf-8").splitlines(), 1)
               if re.search(r"`(?:\.\./)?shared/", line)]
    assert not outside, "\n".join(outside)
    assert (REPO / "tests" / "data" / "corpus-sources.tsv").is_file()
    assert (REPO / "tests" / "data" / "labelled-2-sources.tsv").is_file()
