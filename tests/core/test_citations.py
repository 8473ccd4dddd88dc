"""Every document the project cites exists in the repository, with the cited section
(docs/development.md *Layout and tools*: "a test checks that every citation exists").

A citation is a path of a repository document (`docs/design/lsp.md`, `benchmarks/RESULTS.md`,
`tests/oracle/README.md`, or a design document by its name, `runtime-facts.md`), optionally followed
by a `*Heading*` (a heading of that document that starts with those words) or `§N.N` sections, or
a relative Markdown link (`[text](path#anchor)`). `runtime-facts.md` is an index: its parts are one
file per runtime under docs/design/runtime-facts/, and a `§N.M` cited through its name is section
N.M of a file the index names for §N (a § split per runtime, as §9 is, names one file per runtime,
each holding that runtime's part under the same numbers; a § that no file holds is reported).
They are read in the code (module docstrings and comments), the catalog, the scripts and every
Markdown document of the project. The design inputs the project was started from (the product
brief, the original rule catalog, the reference notes) are not in the repository, so no document
or docstring may cite them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import git_files_or_skip

REPO = Path(__file__).resolve().parents[2]
#: folders whose Markdown files are skills or fixtures, not the project's documents
FIXTURES = ("tests/data/", "tests/golden/cases/", "tests/oracle/probes/", "tests/regression/",
            "examples/", "plugins/")
#: the design documents, cited by their name alone (`runtime-facts.md §3`, `lsp.md *Layering*`)
DESIGN = REPO / "docs" / "design"
#: where the path of a project document starts (`scripts/`, `plugins/` and `docs/` alone also
#: begin the example paths of skills, which are no citations)
TOP_LEVEL = r"(?:docs/(?:design|rules|ci)/|benchmarks/|tests/|wave_lsp/|vscode-client/|schemas/|\.ci/)"
#: paths that only the build creates (the wheel's copy of the schema and the rule pages)
BUILT = ("wave_lsp/_data/",)
#: a cited document and what follows it: `*Heading*` and `§N.N` parts, as in
#: "docs/design/lsp.md *Edits coalesce*" or "runtime-facts.md §4, §8"
CITATION = re.compile(
    r"(?<![\w/.-])(?P<document>docs/security\.md"
    r"|" + TOP_LEVEL + r"[\w./-]*[\w-]\.(?:md|py|toml|json|tsv|yml|sh|ts|mjs)"
    r"|(?:README|CHANGELOG)\.md"
    r"|(?:" + "|".join(re.escape(p.name) for p in sorted(DESIGN.glob("*.md"))) + r"))"
    r"(?P<sections>(?:,?[ \t]+(?:section[ \t]+)?(?:and[ \t]+)?(?:\*[^*\n]+\*|§\d+(?:\.\d+)*))*)")
#: the runtime facts' index, and its rows: `| §N | [title](runtime-facts/file.md), … | … |` (a §
#: split per runtime names one file per runtime in its second column)
FACTS_INDEX = DESIGN / "runtime-facts.md"
_INDEX_ROW = re.compile(r"^\| §(\d+) \| ([^|\n]+) \|", re.MULTILINE)
_INDEX_FILE = re.compile(r"\[[^\]\n]*\]\((runtime-facts/[\w-]+\.md)\)")
_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\((?P<target>[^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```$", re.MULTILINE | re.DOTALL)
#: the design inputs outside the repository, by the names they were known under
DESIGN_INPUTS = re.compile(r"PRODUCT\.md|RULES\.md|spec-facts\.md|runtimes\.md|lsp-anchors\.md"
                           r"|shared/(?:spec|reference)\b")


def tracked() -> list[str]:
    """The repository's files, as git tracks them (the test skips outside a git checkout)."""
    return [path for path in git_files_or_skip(REPO) if (REPO / path).is_file()]


def documents() -> list[Path]:
    """The project's own Markdown documents."""
    return [REPO / path for path in tracked()
            if path.endswith(".md") and not path.startswith(FIXTURES)]


def sources() -> list[Path]:
    """Code and scripts that cite documents in docstrings and comments."""
    suffixes = (".py", ".ts", ".mjs", ".sh", ".toml", ".yml")
    named = {".ci/run", "scripts/release"}
    return [REPO / path for path in tracked()
            if (path.endswith(suffixes) or path in named) and not path.startswith(FIXTURES)
            and "/node_modules/" not in path]


def headings(document: Path) -> list[str]:
    text = _FENCE.sub("", document.read_text("utf-8"))
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


def facts_parts() -> dict[str, list[Path]]:
    """The runtime facts' index: top-level § number -> the files of docs/design/runtime-facts/ that
    hold it and its subsections (one, or one per runtime for a § split per runtime)."""
    rows = _INDEX_ROW.findall(FACTS_INDEX.read_text("utf-8"))
    return {number: [FACTS_INDEX.parent / file for file in _INDEX_FILE.findall(files)]
            for number, files in rows if _INDEX_FILE.search(files)}


def facts_files(section: str) -> list[Path]:
    """The files that may hold `section` (`3.4`) of the runtime facts, as the index says; none when
    the index names no file for its top-level §."""
    return facts_parts().get(section.split(".", 1)[0], [])


def holds(part: Path, section: str) -> bool:
    """Whether a heading of `part` is section `section` (`9.5`, or `§9.5`)."""
    return any(re.match(rf"§?{re.escape(section)}[\s.:]", h) for h in headings(part))


def facts_sections() -> set[str]:
    """Every § number of the runtime facts (`3`, `3.4`, …) that a file the index names holds."""
    found = set()
    for number, parts in facts_parts().items():
        for heading in (h for part in parts for h in headings(part)):
            match = re.match(r"(\d+(?:\.\d+)*)[\s.:]", heading)
            if match and match[1].split(".", 1)[0] == number:
                found.add(match[1])
    return found


def github_anchor(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def resolve(document: str, cited_in: Path) -> Path | None:
    """The cited file: from the repository root, from the citing file's folder, or (a design
    document by its name) in docs/design."""
    for base in (REPO, cited_in.parent, DESIGN):
        candidate = (base / document).resolve()
        if candidate.is_relative_to(REPO) and candidate.exists():
            return candidate
    return None


@dataclass(frozen=True)
class Citation:
    cited_in: Path
    line: int
    text: str

    def where(self) -> str:
        return f"{self.cited_in.relative_to(REPO)}:{self.line}: {self.text.strip()}"


def citation_problems(cited_in: Path, text: str) -> tuple[int, list[str]]:
    """How many citations `text` holds, and what is wrong with them."""
    problems: list[str] = []
    count = 0
    for number, line in enumerate(text.splitlines(), 1):
        for match in CITATION.finditer(line):
            if match["document"].startswith(BUILT):
                continue
            count += 1
            citation = Citation(cited_in, number, match.group(0))
            target = resolve(match["document"], cited_in)
            if target is None:
                problems.append(f"{citation.where()} (no such file)")
                continue
            problems += section_problems(citation, target, match["sections"])
    return count, problems


def section_problems(citation: Citation, target: Path, sections: str) -> list[str]:
    if not sections or not target.is_file() or target.suffix != ".md":
        return []
    index = target == FACTS_INDEX
    found = headings(target)
    if index:  # a heading of the index or of any of its parts
        found += [h for parts in facts_parts().values() for part in parts for h in headings(part)]
    problems = []
    for heading in re.findall(r"\*([^*\n]+)\*", sections):
        if not any(h.replace("`", "").startswith(heading.replace("`", "")) for h in found):
            problems.append(f"{citation.where()} (no heading `{heading}`)")
    for section in re.findall(r"§(\d+(?:\.\d+)*)", sections):
        holders = facts_files(section) if index else [target]
        if not holders:
            problems.append(f"{citation.where()} (no section §{section}: the index names no file "
                            f"for §{section.split('.', 1)[0]})")
        elif not any(holds(holder, section) for holder in holders):
            problems.append(f"{citation.where()} (no section §{section})")
    return problems


def link_problems(document: Path, text: str) -> tuple[int, list[str]]:
    """Every relative link of a Markdown document leads to a file or folder of the repository,
    and its `#anchor` to a heading there."""
    problems: list[str] = []
    count = 0
    for match in _LINK.finditer(_FENCE.sub("", text)):
        target = match["target"]
        if re.match(r"[a-z][a-z+.-]*:", target):
            continue  # a web address: README links are checked by tests/clients/test_readme.py
        count += 1
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        where = f"{document.relative_to(REPO)}: ({target})"
        if not linked.is_relative_to(REPO) or not linked.exists():
            problems.append(f"{where} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in map(github_anchor,
                                                                      headings(linked)):
            problems.append(f"{where} (no heading with anchor #{anchor})")
    return count, problems


def test_cited_documents_and_sections_exist() -> None:
    missing: list[str] = []
    cited = 0
    for source in [*sources(), *documents()]:
        if source == Path(__file__):
            continue  # its examples of broken citations are checked below, one by one
        count, problems = citation_problems(source, source.read_text("utf-8"))
        cited += count
        missing += problems
    assert cited > 300
    assert not missing, "\n".join(missing)


def test_relative_links_of_the_documents_lead_somewhere() -> None:
    missing: list[str] = []
    linked = 0
    for document in documents():
        count, problems = link_problems(document, document.read_text("utf-8"))
        linked += count
        missing += problems
    assert linked > 100
    assert not missing, "\n".join(missing)


def test_no_document_cites_the_design_inputs_outside_the_repository() -> None:
    """The product brief, the original catalog and the reference notes the project started from
    are not in the repository: documents, docstrings and scripts cite the design documents that
    hold what was taken from them (docs/design/) instead. Only the tests that compare against them
    when they are beside the clone (and skip otherwise) name them."""
    citing = [path for path in [*sources(), *documents()]
              if not path.relative_to(REPO).as_posix().startswith("tests/")]
    outside = [f"{path.relative_to(REPO)}:{number}: {line.strip()}"
               for path in citing
               for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
               if DESIGN_INPUTS.search(line)]
    assert not outside, "\n".join(outside)


def test_the_larger_corpus_is_named_with_its_sources() -> None:
    """The larger corpus the project is developed against lies beside the clone (`../shared/`),
    not in it: a document that says where the tests look for it says in the same paragraph where
    its sources are listed (tests/data/corpus-sources.tsv)."""
    unsourced = [f"{document.relative_to(REPO)}: {paragraph[:80]}…"
                 for document in documents()
                 for paragraph in re.split(r"\n\s*\n", document.read_text("utf-8"))
                 if "shared/" in paragraph and "corpus-sources.tsv" not in paragraph]
    assert not unsourced, "\n".join(unsourced)


def test_design_documents_cite_only_what_the_repository_holds() -> None:
    """A design document or benchmark report names no path outside the repository (the shared
    corpora and the original catalog are design inputs a clone does not have): it cites their
    sources, tests/data/corpus-sources.tsv and tests/data/labelled-2-sources.tsv, instead."""
    reports = [*sorted((REPO / "docs").rglob("*.md")), *sorted((REPO / "benchmarks").rglob("*.md"))]
    outside = [f"{document.relative_to(REPO)}:{number}: {line.strip()}"
               for document in reports
               for number, line in enumerate(document.read_text("utf-8").splitlines(), 1)
               if re.search(r"`(?:\.\./)?shared/", line)]
    assert not outside, "\n".join(outside)
    assert (REPO / "tests" / "data" / "corpus-sources.tsv").is_file()
    assert (REPO / "tests" / "data" / "labelled-2-sources.tsv").is_file()


# -- the checks themselves: each kind of broken citation is caught ------------------------------

BROKEN = [
    ("see docs/design/nowhere.md", "no such file"),
    ("see docs/design/lsp.md *No Such Heading*", "no heading"),
    ("see runtime-facts.md §99.1", "no section §99.1"),
    ("see runtime-facts.md §3.99", "no section §3.99"),
    ("docs/design/runtime-facts.md §12.9", "no section §12.9"),
    ("runtime-facts.md §9.11", "no section §9.11"),
    ("(docs/design/README.md, *Scanning nothing*)", "no heading"),
    ("benchmarks/RESULTS.md section *Nothing measured*", "no heading"),
    ("tests/oracle/missing.py", "no such file"),
]


def test_each_kind_of_broken_citation_is_reported() -> None:
    for text, expected in BROKEN:
        count, problems = citation_problems(REPO / "README.md", text)
        assert count == 1 and len(problems) == 1 and expected in problems[0], (text, problems)


def test_citations_that_hold_are_not_reported() -> None:
    for text in ("docs/design/lsp.md *Edits coalesce*", "runtime-facts.md §3.5 and §4",
                 "benchmarks/RESULTS.md *Edit bursts*", "docs/design/README.md"):
        assert citation_problems(REPO / "README.md", text) == (1, []), text


def test_the_index_maps_each_section_to_the_file_that_holds_it() -> None:
    """`runtime-facts.md §N.M` resolves through the index into a part of §N; every part is in the
    index, begins with the `## N.` sections the index names it for, and a § is held by several
    parts only where it is split per runtime (§9: the five targets of issue 28; §11: the two
    runtimes issue 39 ran)."""
    parts = facts_parts()
    named = [part for files in parts.values() for part in files]
    assert set(named) == set((DESIGN / "runtime-facts").glob("*.md"))
    assert len(parts) >= 13
    for part in set(named):
        top = [h.split(".", 1)[0] for h in headings(part) if re.match(r"\d+\. ", h)]
        assert top == sorted((n for n, files in parts.items() if part in files), key=int), (
            part.name, top)
    split = {number: sorted(part.name for part in files)
             for number, files in parts.items() if len(files) > 1}
    assert split == {"9": ["codex.md", "copilot-vscode.md", "cursor.md", "gemini-cli.md",
                           "opencode.md"],
                     "11": ["copilot-cli.md", "gemini-cli.md"]}
    assert facts_files("3.4") == [DESIGN / "runtime-facts" / "claude-code.md"]
    assert facts_files("12.1") == [DESIGN / "runtime-facts" / "harness-corrections.md"]
    assert facts_files("1.2") == [DESIGN / "runtime-facts" / "agentskills-spec.md"]
    assert facts_files("99") == []
    assert {"0", "3.4", "3.10", "8.12", "9.3", "9.10", "11", "12.5"} <= facts_sections()
    assert "3.99" not in facts_sections() and "9.11" not in facts_sections()
    # each runtime's part of §9 holds its own subsections: Codex and OpenCode were run (§9.10),
    # Cursor's documentation says nothing of the frontmatter's first line (§9.3)
    holders = {part.name for part in facts_files("9.10") if holds(part, "9.10")}
    assert holders == {"codex.md", "opencode.md"}
    assert {part.name for part in facts_files("9.3") if not holds(part, "9.3")} == {"cursor.md"}
    # a subsection is found only in the files of its §: 3.8 is not a heading of the Wave part
    count, problems = citation_problems(REPO / "README.md", "runtime-facts.md §8.12 and §3.8")
    assert (count, problems) == (1, [])
    assert citation_problems(REPO / "README.md", "runtime-facts.md §9.10, §9.3 and §11") == (1, [])


def test_a_broken_link_is_reported() -> None:
    text = "[a](lsp.md#no-such-heading) [b](missing.md) [c](lsp.md#edits-coalesce) [d](https://x.y)"
    count, problems = link_problems(DESIGN / "README.md", text)
    assert count == 3, problems
    assert [problem.split(" (", 1)[1] for problem in problems] == [
        "lsp.md#no-such-heading) (no heading with anchor #no-such-heading)",
        "missing.md) (no such file)"]
