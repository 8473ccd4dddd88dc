"""Applying a quick fix removes the finding it belongs to (and breaks nothing else)."""

from __future__ import annotations

import pytest

from tests.helpers import run
from wave_lsp.core.checking.findings import apply_edits

CASES = [
    ("SK005", "\n\n---\nname: my-skill\ndescription: X. Use when asked.\n---\n"),
    ("SK007", "----\nname: my-skill\ndescription: X. Use when asked.\n---\n"),
    ("SK010", "---\r\nname: my-skill\r\ndescription: X. Use when asked.\r\n---\r\n"),
    ("SK021", "---\nname: my-skill\ndescription: Use when: the user asks\n---\n"),
    ("SK022", "---\nname: my-skill\ndescription: X. Use when asked.\nname: other\n---\n"),
    ("SK023", "---\nname: my-skill\ndescription: X. Use when asked.\npaths: **/*.ts\n---\n"),
    ("SK024", "---\nname: my-skill\ndescription: X. Use when asked.\nlicense: !!str MIT\n---\n"),
    ("SK026", "---\nname: my-skill\ndescription: X. Use when asked.\nmetadata:\n\tv: '1'\n---\n"),
    ("SK027", "---\nname: my-skill\ndescription: X. Use when asked.\nargument-hint: [n]\n---\n"),
    ("SK030", "---\ndescription: X. Use when asked.\n---\n"),
    ("SK034", "---\nname: My-Skill\ndescription: X. Use when asked.\n---\n"),
    ("SK039", "---\nname: other\ndescription: X. Use when asked.\n---\n"),
    ("SK051", "---\nname: my-skill\ndescription: yes\n---\n"),
    ("SK062", "---\nname: my-skill\ndescription: X. Use when asked.\nmetadata:\n  v: 1.0\n---\n"),
    ("SK071", "---\nname: my-skill\ndescription: X. Use when asked.\nallowedTools: Read\n---\n"),
    ("SK081", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools: Read Grep\n---\n"),
    ("SK083", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools:\n  - Grap\n---\n"),
    ("SK090", "---\nname: my-skill\ndescription: X. Use when asked.\nuser-invocable: no\n---\n"),
    ("SK092", "---\nname: my-skill\ndescription: X. Use when asked.\ncontext: forked\n---\n"),
    ("SK093", "---\nname: my-skill\ndescription: X. Use when asked.\nagent: Explore\n---\n"),
    ("SK095", "---\nname: my-skill\ndescription: X. Use when asked.\neffort: hihg\n---\n"),
    ("SK100", "---\nname: my-skill\ndescription: X. Use when asked.\nhooks:\n  PreToolUs:\n"
              "    - hooks:\n        - type: command\n          command: x\n---\n"),
    ("SK116", "---\nname: my-skill\ndescription: X. Use when asked.\nargument-hint: '[f]'\n---\n"
              "```\nawk '{print $1}'\n```\n"),
    ("SK117", "---\nname: my-skill\ndescription: X. Use when asked.\n---\nRun ${WAVE_SKIL_DIR}/x\n"),
    # SK123: the narrowest rule goes into `allowed-tools`, in the form the file uses
    # (commands Wave refuses with no rule: its read-only commands and default rules run)
    ("SK123", "---\nname: my-skill\ndescription: X. Use when asked.\n---\nB: !`git fetch`\n"),
    ("SK123", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools:\n  - Read\n"
              "---\nB: !`git push -n '--push-option=%H: (x)'`\n"),  # valid bash (parentheses quoted)
    ("SK123", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools: [Read]\n---\n"
              "B: !`git status && git fetch`\n"),
    ("SK123", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools: Read\n---\n"
              "B: !`node ${WAVE_SKILL_DIR}/x.mjs`\n"),
    ("SK123", "---\nname: my-skill\ndescription: X. Use when asked.\nallowed-tools: \"Read\"\n---\n"
              "B: !`make \"hi\"`\n"),
    ("SK123", "---\r\nname: my-skill\r\ndescription: X. Use when asked.\r\nallowed-tools:\r\n"
              "    - Read\r\n---\r\nB: !`git fetch`\r\n"),
]


@pytest.mark.parametrize(("code", "text"), CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_fix_removes_the_finding(code: str, text: str, tmp_path) -> None:
    target = "portable" if code == "SK010" else "wave"
    report = run(tmp_path, text, target=target)
    finding = next(f for f in report.findings if f.code == code)
    assert finding.fixes, f"{code} offers no fix"
    fixed = apply_edits(report.document.text, finding.fixes[0].edits)
    after = run(tmp_path, ("\ufeff" if report.document.bom else "") + fixed, target=target)
    assert code not in [f.code for f in after.findings], fixed
    assert not any(f.code in ("SK020", "SK021") for f in after.findings), fixed


def test_broken_reference_fix_points_at_the_nearest_file(tmp_path) -> None:
    text = "---\nname: my-skill\ndescription: X. Use when asked.\n---\nSee [x](references/gude.md).\n"
    report = run(tmp_path, text, files={"my-skill/references/guide.md": "# G\n"})
    finding = next(f for f in report.findings if f.code == "SK112")
    assert "references/guide.md" in finding.message
    fixed = apply_edits(report.document.text, finding.fixes[0].edits)
    assert "(references/guide.md)" in fixed


@pytest.mark.parametrize(("body", "offered"), [
    ("Fetch: !`git fetch`\n", True),  # an allow rule would let it run
    # Wave's exact rule matches shell code computed at run time as text (runtime-facts §8.12)
    ('Run: !`bash -c "$(cat x)"`\n', True),
    # Wave (the default target) runs a command its exact allow rule names, wherever it writes
    # (wave-lsp's own refusal of a write outside the project is the execution guard's)
    ("Save: !`cp a /etc/x`\n", True),
])
def test_sk123_offers_an_allow_rule_only_where_one_can_help(tmp_path, body: str,
                                                             offered: bool) -> None:
    text = "---\nname: my-skill\ndescription: Does. Use when asked.\n---\n" + body
    (finding,) = [f for f in run(tmp_path, text).findings if f.code == "SK123"]
    assert bool(finding.fixes) is offered, finding.message
