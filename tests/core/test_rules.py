"""Every implemented rule: one triggering and one non-triggering example, under every target.

A triggering case marks the expected range with «…» and is checked under every target: where
the catalog reports the rule, the finding must be there with exactly that range and the catalog's
severity (or the instance level the case names); where the catalog says `–`, it must be absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from tests.helpers import run, strip_markers
from wave_lsp.core.checking.catalog import Severity, rule
from wave_lsp.core.facts.profiles import PROFILES, TARGETS
from wave_lsp.core.rules import implemented_codes

GOOD = "---\nname: my-skill\ndescription: Extracts text. Use when the user asks for it.\n---\n# Body\n"


def fm(*lines: str, body: str = "# Body\n") -> str:
    return "---\n" + "".join(line + "\n" for line in lines) + "---\n" + body


#: the targets of the first catalog columns, and the runtimes added with issue 28
FIRST = ("wave", "claude-code", "agentskills", "portable")
#: the runtimes that substitute no arguments and no `${…}` (docs/design/runtime-facts.md §9.7)
LITERAL = ("codex", "copilot", "cursor", "gemini-cli")
#: the runtimes that never scan `.claude/skills`
NO_CLAUDE_ROOT = ("codex", "gemini-cli")

NAME = "name: my-skill"
DESC = "description: Extracts text. Use when the user asks for it."
LONG = "description: " + "A long description of what this skill does for people. " * 5 + "Use when asked."


@dataclass
class Case:
    code: str
    text: str
    relpath: str = "my-skill/SKILL.md"
    files: dict[str, str] = field(default_factory=dict)
    #: instance level per target where it differs from the catalog
    level: dict[str, Severity] = field(default_factory=dict)
    only: tuple[str, ...] = TARGETS  #: targets where the case applies


TRIGGERS: list[Case] = [
    Case("SK001", "«---»\nname: my-skill\ndescription: Extracts. Use when asked.\n---\n",
         relpath="my-skill/skill.md"),
    Case("SK002", "«---»\nname: skills\ndescription: Lost. Use when asked.\n---\n",
         relpath="proj/.wave/skills/SKILL.md", only=("wave", "portable", "agentskills")),
    Case("SK002", "«---»\nname: b\ndescription: Deep. Use when asked.\n---\n",
         relpath="proj/.claude/skills/deprecated/b/SKILL.md",  # nested on purpose
         level={t: Severity.INFORMATION for t in ("wave", "claude-code", "portable", "copilot",
                                                  "cursor")},
         only=tuple(t for t in TARGETS if t not in (*NO_CLAUDE_ROOT, "opencode", "copilot-cli"))),
    # Codex follows folders six deep, Gemini CLI one (and the root itself)
    # nested in a category folder (issue 27): never loaded, and nothing says it is on purpose
    Case("SK002", "«---»\nname: b\ndescription: Deep. Use when asked.\n---\n",
         relpath="proj/.claude/skills/expertise/b/SKILL.md",
         only=("wave", "claude-code", "portable", "copilot", "cursor")),
    Case("SK002", "«---»\nname: g\ndescription: Deep. Use when asked.\n---\n",
         relpath="proj/.agents/skills/a/b/c/d/e/f/g/SKILL.md", only=("codex",)),
    Case("SK002", "«---»\nname: b\ndescription: Deep. Use when asked.\n---\n",
         relpath="proj/.agents/skills/a/b/SKILL.md", only=("gemini-cli",)),
    Case("SK002", "«---»\nname: b\ndescription: Deep. Use when asked.\n---\n",
         relpath="proj/.agents/skills/archive/b/SKILL.md", level={"gemini-cli": Severity.INFORMATION},
         only=("gemini-cli",)),
    Case("SK004", "\ufeff«---»\nname: my-skill\ndescription: X. Use when asked.\n---\n"),
    Case("SK005", "«# Title»\nNo frontmatter here.\n"),
    Case("SK005", "«\n---»\nname: my-skill\ndescription: X. Use when asked.\n---\n"),
    Case("SK006", "«---»\nname: my-skill\ndescription: X. Use when asked.\n# Body\n"),
    Case("SK007", "«----»\nname: my-skill\ndescription: X. Use when asked.\n---\n"),
    Case("SK007", "---\nname: my-skill\ndescription: X. Use when asked.\n«--- »\n"),
    Case("SK008", fm(NAME, "description: A «---» B. Use when asked.")),
    Case("SK009", "---\n«- name: my-skill»\n---\n"),
    Case("SK009", "«---»\n---\n"),
    Case("SK010", "«---»\r\nname: my-skill\r\ndescription: X. Use when asked.\r\n---\r\n"),
    Case("SK020", fm(NAME, 'description: «"»unterminated'),  # Gemini CLI keeps the quote
         level={"gemini-cli": Severity.WARNING}),
    # Claude Code's quoting retry loads it: information there (docs/design/rules.md *YAML*)
    # Codex 0.171.0 reads a broken flow value as text (tests/oracle/cases/cx-yaml-flow-junk)
    Case("SK020", fm(NAME, DESC, "x: [1, 2«}»"), level={"claude-code": Severity.INFORMATION,
                                                         "gemini-cli": Severity.INFORMATION,
                                                         "codex": Severity.INFORMATION}),
    Case("SK021", fm(NAME, "description: «Use when: the user asks»"),
         level={"claude-code": Severity.INFORMATION, "opencode": Severity.INFORMATION,
                "gemini-cli": Severity.INFORMATION, "codex": Severity.INFORMATION}),
    # OpenCode's colon retry skips hyphenated keys: the skill disappears; Codex loads it
    Case("SK021", fm(NAME, DESC, "argument-hint: «file: optional»"),
         level={"claude-code": Severity.INFORMATION, "gemini-cli": Severity.INFORMATION,
                "codex": Severity.INFORMATION}),
    Case("SK022", fm(NAME, DESC, "«name»: other"), level={"gemini-cli": Severity.WARNING}),
    # Claude Code's quoting retry reads the pattern (probe fm-glob-paths): the skill loads,
    # conditional on it
    Case("SK023", fm(NAME, DESC, "paths: «**/*.ts»"),
         level={"gemini-cli": Severity.INFORMATION, "claude-code": Severity.INFORMATION}),
    # a valid anchor loads under the js-yaml runtimes (`resolves_yaml_aliases`, issue 36)
    Case("SK023", fm(NAME, DESC, "metadata:\n  a: «&x» one\n  b: *x"),
         level={"opencode": Severity.WARNING, "gemini-cli": Severity.WARNING}),
    # js-yaml resolves a standard tag: OpenCode loads the skill (parser probe `explicit !!str tag`)
    Case("SK024", fm(NAME, DESC, "license: «!!str» MIT"), level={"opencode": Severity.WARNING}),
    Case("SK024", fm(NAME, DESC, "license: «!foo» MIT")),
    Case("SK025", fm(NAME, DESC, "allowed-tools: «[Read, Grep]»")),
    # Claude Code 2.1.332's retry re-indents the tab and loads the fields: a warning there
    # Gemini CLI's line parser reads `name` and `description` (parser probe `tab indentation`)
    Case("SK026", fm(NAME, DESC, "metadata:\n«\t»version: '1'"),
         level={"claude-code": Severity.WARNING, "gemini-cli": Severity.INFORMATION}),
    Case("SK027", fm(NAME, DESC, "argument-hint: «[issue]»"), only=("wave", "claude-code"),
         level={"wave": Severity.INFORMATION, "claude-code": Severity.INFORMATION}),
    # only YAML 1.1 loaders (the claude.ai upload) read `yes` as a boolean: `portable` only
    Case("SK027", fm(NAME, DESC, "license: «yes»"), only=("portable",)),
    Case("SK028", fm(NAME, "description: «>-»\n  Extracts text.\n  Use when asked.")),
    Case("SK030", "«---»\ndescription: X. Use when asked.\n---\n"),
    Case("SK031", fm("name: «2048»", DESC)),
    Case("SK032", fm('name: «""»', DESC)),
    Case("SK033", fm("name: «" + "a" * 65 + "»", DESC), relpath="a" * 65 + "/SKILL.md"),
    Case("SK034", fm("name: «My-Skill»", DESC), relpath="My-Skill/SKILL.md"),
    Case("SK035", fm("name: «-my-skill»", DESC), relpath="-my-skill/SKILL.md"),
    Case("SK036", fm("name: «my--skill»", DESC), relpath="my--skill/SKILL.md"),
    # Copilot CLI 1.0.102 allows `_`, `.`, `:` and spaces, and no name that starts with another
    # character or holds `~` (tests/oracle/cases/cp-name-rules)
    Case("SK037", fm("name: «my_skill»", DESC), relpath="my_skill/SKILL.md",
         only=tuple(t for t in TARGETS if t != "copilot-cli")),
    Case("SK037", fm("name: «my~skill»", DESC), relpath="my~skill/SKILL.md"),
    Case("SK038", fm("name: «café»", DESC), relpath="café/SKILL.md"),
    Case("SK039", fm("name: «other-name»", DESC)),
    Case("SK040", fm("name: «claude-helper»", DESC), relpath="claude-helper/SKILL.md"),
    Case("SK041", fm('name: «"my-skill "»', DESC)),
    Case("SK050", "«---»\nname: my-skill\n---\n"),
    Case("SK051", fm(NAME, "description: «yes»")),
    Case("SK051", fm(NAME, "description: «1.0»")),
    Case("SK052", fm(NAME, 'description: «"  "»')),
    # Codex 0.171.0 cuts it in the listing (tests/oracle/cases/cx-description-1100)
    Case("SK053", fm(NAME, "description: «" + ("Use when x. " * 90).strip() + "»"),
         level={"codex": Severity.WARNING}),
    Case("SK054", fm(NAME, "description: Converts «<»table> markup. Use when asked.")),
    Case("SK055", fm(NAME, "description: «" + ("Use when x. " * 80).strip() + "»",
                     "when_to_use: " + "w" * 700)),
    Case("SK056", fm(NAME, "description: «PDF utilities.»")),
    Case("SK060", fm(NAME, DESC, "compatibility: «" + "c" * 501 + "»")),
    Case("SK061", fm(NAME, DESC, "license: «[MIT]»")),
    Case("SK061", fm(NAME, DESC, "license: «Complete terms in LICENSE.txt»"),
         level={t: Severity.HINT for t in TARGETS}),
    Case("SK062", fm(NAME, DESC, "metadata:\n  version: «1.0»")),
    Case("SK070", fm(NAME, DESC, "«author»: Jane")),
    Case("SK070", fm(NAME, DESC, "«license»: MIT"), only=("codex", "gemini-cli")),
    Case("SK071", fm(NAME, DESC, "«allowed_tools»: Read")),
    Case("SK080", fm(NAME, DESC, "allowed-tools:\n  «Bash: true»")),
    Case("SK081", fm(NAME, DESC, "allowed-tools: «Read Grep»"), only=("wave", "portable")),
    Case("SK081", fm(NAME, DESC, "allowed-tools:\n  «- Read\n  - Grep»"),
         only=("agentskills",)),
    Case("SK082", fm(NAME, DESC, "allowed-tools:\n  - «Bash(git status»")),
    Case("SK083", fm(NAME, DESC, "allowed-tools:\n  - «Bsh(git:*)»")),
    Case("SK084", fm(NAME, DESC, "allowed-tools:\n  - «Bash(git:* push)»")),
    Case("SK085", fm(NAME, DESC, "allowed-tools:\n  - «Bash»")),
    Case("SK086", fm(NAME, DESC, "allowed-tools:\n  - Bash(node «${WAVE_PLUGIN_ROOT}»/x.mjs *)")),
    Case("SK087", fm(NAME, DESC, "allowed-tools:\n  - «Bash(command:git *)»")),
    # Claude Code reads `yes` as meant: only other runtimes misread it (information)
    # Copilot CLI 1.0.102 takes only a YAML boolean and drops the skill (case
    # cp-invocation-booleans)
    Case("SK090", fm(NAME, DESC, "disable-model-invocation: «yes»"),
         level={"claude-code": Severity.INFORMATION, "copilot-cli": Severity.ERROR}),
    Case("SK090", fm(NAME, DESC, "disable-model-invocation: «y»"),
         level={"copilot-cli": Severity.ERROR}),
    Case("SK090", fm(NAME, DESC, 'user-invocable: «"true"»'), only=("copilot-cli",),
         level={"copilot-cli": Severity.ERROR}),
    Case("SK090", fm(NAME, DESC, "user-invocable: «maybe»"),
         level={t: Severity.ERROR for t in TARGETS}),
    Case("SK091", fm(NAME, DESC, "disable-model-invocation: true", "user-invocable: «false»")),
    Case("SK092", fm(NAME, DESC, "context: «forked»")),
    Case("SK093", fm(NAME, DESC, "«agent»: Explore")),
    Case("SK094", fm(NAME, DESC, "context: fork", "agent: «reviewer»")),
    Case("SK151", fm(NAME, DESC, "context: «fork»",
                     body="Summarise the decisions made in this conversation.\n")),
    Case("SK095", fm(NAME, DESC, "effort: «maximum»")),
    Case("SK096", fm(NAME, DESC, "shell: «zsh»")),
    Case("SK097", fm(NAME, DESC, "model: «best»")),
    Case("SK098", fm(NAME, DESC, "arguments: [issue, «2»]")),
    Case("SK099", fm(NAME, DESC, 'paths: «"**"»')),
    Case("SK100", fm(NAME, DESC, "hooks:\n  «PreTool»:\n    - hooks:\n        - type: command")),
    # reported a fifth over the spec's soft 500 lines, from line 500 on
    Case("SK110", fm(NAME, DESC, body="x\n" * 500 + "«x»\n" + "x\n" * 100)),
    Case("SK110", fm(NAME, DESC, body="«" + "w" * 60 + "»\n" + ("w" * 60 + "\n") * 400),
         level={t: Severity.INFORMATION for t in TARGETS}),
    Case("SK111", fm(NAME, DESC, body="x" * 70_000).replace("---", "«---»", 1)),
    Case("SK112", fm(NAME, DESC, body="See [the list](«references/checklist.md»).\n")),
    # a bare path-like word is heuristic (issue 27): at most information under every target ...
    Case("SK112", fm(NAME, DESC, body="The numbers come with `«scripts/extract.py»`.\n"),
         level={t: Severity.INFORMATION for t in TARGETS}),
    # ... unless the skill's words make it a file to run or read: then it is likely
    Case("SK112", fm(NAME, DESC, body="Run `python «scripts/extract.py»`.\n")),
    Case("SK112", fm(NAME, DESC, body="Run `node «${WAVE_SKILL_DIR}/scripts/x.mjs»`.\n")
         .replace("«${WAVE_SKILL_DIR}/", "${WAVE_SKILL_DIR}/«")),
    Case("SK113", fm(NAME, DESC, body="See [shared](«../common/rules.md»).\n")),
    # the file exists beside the folder, but no plugin or project loads the skill: it is
    # installed as its folder alone, without the file (issue 27)
    Case("SK113", fm(NAME, DESC, body="See [shared](«../common/rules.md»).\n"),
         files={"common/rules.md": "# Rules\n"}),
    Case("SK113", fm(NAME, DESC, body="Read «/etc/hosts» first? No: [hosts](«/etc/hosts»).\n")
         .replace("«/etc/hosts» first", "/etc/hosts first", 1).replace("»).", ").", 0)),
    Case("SK114", fm(NAME, DESC, body="Start with [a](«references/a.md»).\n"),
         files={"my-skill/references/a.md": "See [b](b.md).\n",
                "my-skill/references/b.md": "Then [c](c.md) and [main](../SKILL.md).\n",
                "my-skill/references/c.md": "Back to [a](a.md).\n"}),
    # helper links spelled with a percent-encoded dot or an upper-case extension still count
    Case("SK114", fm(NAME, DESC, body="Start with [a](«references/a.md»).\n"),
         files={"my-skill/references/a.md": "See [b](b%2Emd).\n",
                "my-skill/references/b.md": "Then [c](c.md).\n",
                "my-skill/references/c.md": "Back to [a](a%2emd).\n"}),
    Case("SK114", fm(NAME, DESC, body="Start with [a](«references/A.MD»).\n"),
         files={"my-skill/references/A.MD": "See [b](B.%4D%44).\n",
                "my-skill/references/B.MD": "Then [c](C.MD).\n",
                "my-skill/references/C.MD": "Back to [a](A.MD).\n"}),
    Case("SK115", fm(NAME, DESC, body="Fix issue «$1» now.\n"), only=(*FIRST, "opencode")),
    Case("SK115", fm(NAME, DESC, body="Use «$0».\n"),
         level={"wave": Severity.WARNING, "opencode": Severity.WARNING}, only=(*FIRST, "opencode")),
    # a runtime that substitutes nothing: the placeholders reach the model as written
    Case("SK115", fm(NAME, DESC, 'argument-hint: "[issue]"', body="Fix issue «$1» now.\n"),
         only=LITERAL),
    Case("SK115", fm(NAME, DESC, body="Fix «$ARGUMENTS» now.\n"), only=LITERAL),
    Case("SK116", fm(NAME, DESC, 'argument-hint: "[file]"',
                     body="```\nawk '{print «$1»}' $ARGUMENTS\n```\n")),
    Case("SK117", fm(NAME, DESC, body="Run «${SKILL_DIR}»/x.\n")),
    Case("SK117", fm(NAME, DESC, body="Run «${CLAUDE_SKILL_DIR}»/x.\n"),
         only=(*LITERAL, "opencode", "portable")),
    Case("SK117", fm(NAME, DESC, body="Run «${CLAUDE_PLUGIN_ROOT}»/x.\n"),
         level={"wave": Severity.WARNING, "claude-code": Severity.WARNING}),
    Case("SK118", fm(NAME, DESC, "arguments: [issue]", body="Deploy «$env» for $issue.\n")),
    # Wave and OpenCode substitute no names: a declared `$issue` stays literal there too
    Case("SK118", fm(NAME, DESC, "arguments: [issue]", body="Deploy for «$issue».\n"),
         only=("wave", "opencode")),
    Case("SK119", fm(NAME, DESC, body="Issue: !`gh issue view «$ARGUMENTS»`\n")),
    Case("SK150", fm(NAME, DESC, body="Follow @«/nowhere/guide.md».\n"), only=("claude-code",)),
    # allowed: an injection the runtime refuses gets SK123, which says it runs, not also SK120
    Case("SK120", fm(NAME, DESC, "allowed-tools:\n  - Bash(git branch)",
                     body="Branch: «!`git branch`»\n")),
    Case("SK121", fm(NAME, DESC, body="Example:\n\n```\n«!`echo hi`»\n```\n")),
    Case("SK122", fm(NAME, DESC, body="Means #REF«!`x`».\n")),
    Case("SK123", fm(NAME, DESC, body="Fetch: «!`git fetch`»\n")),
    Case("SK124", fm(NAME, DESC, body="Branch: «!`git branch`»\n"),
         files={"home/.wave/settings.json": '{"permissions": {"allow": ["Bash(git branch)"]}}'},
         only=("wave", "portable")),
    Case("SK124", fm(NAME, DESC, body="Branch: «!`git branch`»\n"),
         files={"home/.claude/settings.json": '{"permissions": {"allow": ["Bash(git branch)"]}}'},
         only=("claude-code",)),
    Case("SK125", fm(NAME, DESC, body="Save: !`«git add -A && git commit -m wip»`\n")),
    Case("SK126", fm(NAME, DESC, body="Run:\n«```!»\ngit status\n")),
    Case("SK130", fm("name: «my-skill»", DESC), relpath=".claude/skills/my-skill/SKILL.md",
         files={"home/.claude/skills/my-skill/SKILL.md": GOOD}, only=("wave", "claude-code", "portable")),
    Case("SK131", fm(NAME, "description: «" + "Very long words " * 40 + "Use when asked.»"),
         relpath=".claude/skills/my-skill/SKILL.md",
         files={f".claude/skills/s{i:02d}/SKILL.md": fm(f"name: s{i:02d}", LONG) for i in range(40)},
         only=tuple(t for t in TARGETS if t not in NO_CLAUDE_ROOT)),
    Case("SK131", fm(NAME, "description: «" + "Very long words " * 40 + "Use when asked.»"),
         relpath=".agents/skills/my-skill/SKILL.md",
         files={f".agents/skills/s{i:02d}/SKILL.md": fm(f"name: s{i:02d}", LONG) for i in range(40)},
         only=("codex",)),
    Case("SK132", fm("name: «my-skill»", DESC), relpath=".claude/skills/my-skill/SKILL.md",
         files={".claude/commands/my-skill.md": "Old command.\n"}),
    Case("SK133", "«---»\n" + NAME + "\n" + DESC + "\n---\n", relpath="node_modules/my-skill/SKILL.md"),
    Case("SK140", "«»" + GOOD, files={"my-skill/assets/table.xlsx": "PK\x00\x00"}),
    Case("SK141", "«---»" + GOOD[3:], files={f"my-skill/references/r{i:03d}.md": "x" for i in range(201)}),
]


NON_TRIGGERS: dict[str, str] = {
    "SK001": GOOD, "SK002": GOOD, "SK003": GOOD, "SK004": GOOD, "SK005": GOOD, "SK006": GOOD,
    "SK007": GOOD, "SK008": fm(NAME, "description: A — B. Use when asked."),
    "SK009": GOOD, "SK010": GOOD,
    "SK020": fm(NAME, 'description: "Use when: quoted"'),
    "SK021": fm(NAME, "description: >-\n  Use when: folded."),
    "SK022": fm(NAME, DESC, "metadata:\n  name: inner"),
    "SK023": fm(NAME, DESC, 'paths: "**/*.ts"'),
    "SK024": fm(NAME, DESC, 'license: "MIT"'),
    "SK025": fm(NAME, DESC, "allowed-tools:\n  - Read"),
    "SK026": fm(NAME, "description: Tabs\tinside. Use when asked."),
    "SK027": fm(NAME, DESC, 'argument-hint: "[issue]"', 'license: "yes"'),
    "SK028": GOOD, "SK030": GOOD, "SK031": GOOD, "SK032": GOOD, "SK033": GOOD, "SK034": GOOD,
    "SK035": GOOD, "SK036": GOOD, "SK037": GOOD, "SK038": GOOD, "SK039": GOOD, "SK040": GOOD,
    "SK041": GOOD, "SK050": GOOD,
    "SK051": fm(NAME, 'description: "yes, use when asked"'),
    "SK052": GOOD, "SK053": GOOD, "SK054": GOOD, "SK055": GOOD, "SK056": GOOD,
    "SK060": fm(NAME, DESC, "compatibility: Requires git"),
    "SK061": fm(NAME, DESC, "license: MIT license"),
    "SK062": fm(NAME, DESC, 'metadata:\n  version: "1.0"'),
    "SK070": fm(NAME, DESC, "license: MIT"),
    "SK071": fm(NAME, DESC, "allowed-tools: Read"),
    "SK080": fm(NAME, DESC, "allowed-tools:\n  - Read"),
    "SK081": fm(NAME, DESC, "allowed-tools: Read"),
    "SK082": fm(NAME, DESC, "allowed-tools:\n  - Bash(git status)"),
    "SK083": fm(NAME, DESC, "allowed-tools:\n  - Read\n  - mcp__sentry__search"),
    "SK084": fm(NAME, DESC, "allowed-tools:\n  - Bash(git push:*)"),
    "SK085": fm(NAME, DESC, "allowed-tools:\n  - Bash(git status)"),
    "SK086": fm(NAME, DESC, "allowed-tools:\n  - Bash(node scripts/x.mjs *)"),
    "SK087": fm(NAME, DESC, "allowed-tools:\n  - WebFetch(domain:example.com)"),
    "SK090": fm(NAME, DESC, "disable-model-invocation: true", 'user-invocable: "true"'),
    "SK091": fm(NAME, DESC, "user-invocable: false"),
    "SK092": fm(NAME, DESC, "context: fork"),
    "SK093": fm(NAME, DESC, "context: fork", "agent: Explore"),
    "SK094": fm(NAME, DESC, "context: fork", "agent: general-purpose"),
    "SK151": fm(NAME, DESC, "context: fork",
                body="Summarise the decisions in `notes.md`; a conversation export is JSON.\n"),
    "SK095": fm(NAME, DESC, "effort: HIGH"),
    "SK096": fm(NAME, DESC, "shell: powershell"),
    "SK097": fm(NAME, DESC, "model: claude-sonnet-4-5"),
    "SK098": fm(NAME, DESC, "arguments: issue branch"),
    "SK099": fm(NAME, DESC, "paths:\n  - src/**/*.ts"),
    "SK100": fm(NAME, DESC, "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
                            "        - type: command\n          command: ./check.sh"),
    "SK110": GOOD, "SK111": GOOD,
    "SK112": fm(NAME, DESC, body="See [api](https://x.dev/api.md), [top](#usage), `a/scripts/x`, "
                                 "and:\n```\n[x](nope.md)\n```\n"),
    "SK113": fm(NAME, DESC, body="See [the web](https://example.com/../x) and [a](#b).\n"),
    "SK114": fm(NAME, DESC, body="See [a](references/a.md).\n"),
    "SK115": fm(NAME, DESC, body="Use $ARGUMENTS and `awk '{print $1}'`.\n"),
    # a skill that takes no arguments: a `$1` nothing marks as literal text is not reported (an
    # awk field there is, as information: issue 27, labelled-2's missed problems)
    "SK116": fm(NAME, DESC, body="```\nrun $1\n```\n"),
    "SK117": fm(NAME, DESC, body="Run ${CLAUDE_SKILL_DIR}/y.\n\n```bash\n"
                                 "echo ${HOME}\n```\n"),
    "SK118": fm(NAME, DESC, "arguments: [issue]", body="Fix $issue; see $HOME and $PATH.\n"),
    "SK119": fm(NAME, DESC, body="Args: !`cat ${WAVE_ARGUMENTS_FILE}` and $ARGUMENTS.\n"),
    "SK150": fm(NAME, DESC, body="Ask @maintainers; install `@acme/tools`; mail a@b.co.\n"),
    "SK120": fm(NAME, DESC, body="`#REF!` means a bad reference; so does KEY=!`x`.\n"),
    "SK121": fm(NAME, DESC, body="Branch: !`git branch`\n"),
    "SK122": fm(NAME, DESC, body="Branch: !`git branch` and ```!\ngit status\n```\n"),
    "SK123": fm(NAME, DESC, "allowed-tools:\n  - Bash(git branch)", body="Branch: !`git branch`\n"),
    "SK124": fm(NAME, DESC, "allowed-tools:\n  - Bash(git branch)", body="Branch: !`git branch`\n"),
    "SK125": fm(NAME, DESC, "allowed-tools:\n  - Bash(git branch)", body="Branch: !`git branch`\n"),
    "SK126": fm(NAME, DESC, body="```!\ngit status\n```\n"),
    "SK130": GOOD, "SK131": GOOD, "SK132": GOOD, "SK133": GOOD, "SK140": GOOD, "SK141": GOOD,
}


def _case_id(case: Case) -> str:
    return f"{case.code}-{TRIGGERS.index(case)}"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", TRIGGERS, ids=_case_id)
def test_rule_triggers(case: Case, target: str, tmp_path) -> None:
    if target not in case.only:
        pytest.skip("case does not apply to this target")
    text, expected = strip_markers(case.text)
    report = run(tmp_path, text, target=target, relpath=case.relpath, files=case.files)
    found = [f for f in report.findings if f.code == case.code]
    default = rule(case.code).severity(PROFILES[target])
    if default is None:
        assert found == [], f"{case.code} must not be reported under {target}"
        return
    assert expected is not None
    matching = [f for f in found if f.range == expected]
    assert matching, (f"{case.code} under {target}: expected range {expected}, got "
                      f"{[(f.range, f.message) for f in found]}")
    assert matching[0].severity == case.level.get(target, default)
    assert matching[0].message


#: non-triggering texts that do trigger under some targets, each covered by a triggering case
NON_TRIGGER_ONLY = {
    "SK070": tuple(t for t in TARGETS if t not in ("codex", "gemini-cli")),  # they ignore `license`
    "SK115": (*FIRST, "opencode"),  # `$ARGUMENTS` reaches the others' models as written
    "SK117": ("wave", "claude-code", "agentskills"),  # `${CLAUDE_SKILL_DIR}` stays literal elsewhere
    "SK118": tuple(t for t in TARGETS if t not in ("wave", "opencode")),  # they read no names
    # Copilot CLI takes only a YAML boolean: `"true"` drops the skill (and so `portable`'s)
    "SK090": tuple(t for t in TARGETS if t not in ("copilot-cli", "portable")),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("code", sorted(NON_TRIGGERS))
def test_rule_does_not_trigger(code: str, target: str, tmp_path) -> None:
    if target not in NON_TRIGGER_ONLY.get(code, TARGETS):
        pytest.skip("this text triggers the rule under this target (see TRIGGERS)")
    report = run(tmp_path, NON_TRIGGERS[code], target=target)
    assert [f.message for f in report.findings if f.code == code] == []


def test_every_implemented_rule_has_cases() -> None:
    triggered = {case.code for case in TRIGGERS} | {"SK003"}  # SK003 needs bytes: test_input.py
    assert implemented_codes() <= triggered
    assert implemented_codes() <= set(NON_TRIGGERS)


def test_good_skill_is_clean_under_every_target(tmp_path) -> None:
    for target in TARGETS:
        report = run(tmp_path, GOOD, target=target)
        assert [(f.code, f.message) for f in report.findings] == [], target


@pytest.mark.parametrize(("target", "written", "suggested"), [
    ("claude-code", "WAVE_SKILL_DIR", ["CLAUDE_SKILL_DIR"]),
    ("wave", "NO_SUCH_DIR", ["WAVE_SKILL_DIR", "CLAUDE_SKILL_DIR"]),
])
def test_sk086_suggests_only_variables_the_target_substitutes(tmp_path, target, written,
                                                              suggested) -> None:
    """Under claude-code `${WAVE_SKILL_DIR}` is the unknown variable: the advice must not offer it
    back; it offers the skill-folder variables the target substitutes in rules."""
    text = fm(NAME, DESC, f"allowed-tools: Bash(${{{written}}}/run.sh)")
    (finding,) = [f for f in run(tmp_path, text, target=target).findings if f.code == "SK086"]
    offered = re.findall(r"`\$\{(\w+)\}`", finding.message.split(": use ", 1)[1])
    assert offered == suggested, finding.message


@pytest.mark.parametrize(("text", "code", "opening"), [
    (fm(NAME, "description: Use when: asked"), "SK021", "Quote this value or write it as a `>-` block:"),
    (fm(NAME, 'description: "unterminated'), "SK020", "Fix the YAML syntax here:"),
    (fm(NAME, "description: *nothing"), "SK023", "Write the value out instead of the alias"),
    (fm(NAME, "description: *#x"), "SK023", "Quote this value (`\"*#x\"`):"),
])
def test_yaml_messages_lead_with_what_to_do(tmp_path, text, code, opening) -> None:
    """The Problems panel cuts a long message off: its first clause says what to do, the parser's
    words come last."""
    (finding,) = [f for f in run(tmp_path, text).findings if f.code == code]
    assert finding.message.startswith(opening), finding.message


def test_messages_explain_wisp_where_they_name_it(tmp_path) -> None:
    """A user does not know "the Wisp indexer": a message that names it says what it is."""
    big = fm(NAME, DESC, body="x" * (70 * 1024))
    (finding,) = [f for f in run(tmp_path, big).findings if f.code == "SK111"]
    assert finding.message.startswith("Split this SKILL.md")
    assert "skill indexers" in finding.message and "the Wisp indexer" not in finding.message
