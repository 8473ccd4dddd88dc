"""The Gemini CLI and Copilot CLI adapters without the runtimes: the two mocks (streamed answers,
recorded bodies, scripted tool calls), the request readers on recorded request shapes, and the
cases' format (tests/oracle/runtimes/gemini_cli.py, copilot_cli.py, docs/design/runtime-facts.md
§11)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.oracle.differential import CASES, cases, load_case
from tests.oracle.mocks import openai_chat
from tests.oracle.mocks.client import post_json, sse_data
from tests.oracle.mocks.gemini import GeminiMock
from tests.oracle.mocks.openai_chat import ChatMock
from tests.oracle.mocks.recording import ToolCall
from tests.oracle.runtimes import copilot_cli, gemini_cli
from tests.oracle.runtimes.pty_session import screen_text

# -- the mocks ---------------------------------------------------------------------------------

GEMINI_TOOLS = [{"functionDeclarations": [
    {"name": "activate_skill", "parametersJsonSchema": {"properties": {"name": {}}}}]}]


@pytest.mark.parametrize(("tools", "calls", "parts"), [
    ([], [], [{"text": "ok"}]),
    (GEMINI_TOOLS, [ToolCall("activate_skill", {"name": "x"})],
     [{"functionCall": {"name": "activate_skill", "args": {"name": "x"}}}]),
    (GEMINI_TOOLS, [ToolCall(None, {"name": "x"}, property="name")],
     [{"functionCall": {"name": "activate_skill", "args": {"name": "x"}}}]),
    ([], [ToolCall("activate_skill", {"name": "x"})], [{"text": "ok"}]),  # not offered
])
def test_the_gemini_mock_streams_text_or_the_scripted_call(
        tools: list[Any], calls: list[ToolCall], parts: list[Any]) -> None:
    with GeminiMock() as api:
        run_id, run = api.new_run(calls)
        url = f"{api.base_url(run_id)}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": tools}
        kind, payload = post_json(url, body)
        second = sse_data(post_json(url, body)[1])
    assert kind == "text/event-stream"
    assert sse_data(payload)[0]["candidates"][0]["content"]["parts"] == parts
    assert second[0]["candidates"][0]["content"]["parts"] == [{"text": "ok"}]  # once only
    assert run.requests == [body, body]
    assert run.paths == ["POST /v1beta/models/gemini-2.5-flash:streamGenerateContent"] * 2


def test_the_gemini_mock_answers_the_other_methods() -> None:
    with GeminiMock() as api:
        run_id, run = api.new_run()
        base = f"{api.base_url(run_id)}/v1beta/models/gemini-2.5-flash"
        assert json.loads(post_json(f"{base}:countTokens", {})[1]) == {"totalTokens": 1}
        whole = json.loads(post_json(f"{base}:generateContent", {"contents": []})[1])
    assert whole["candidates"][0]["content"]["parts"] == [{"text": "ok"}]
    assert len(run.requests) == 1  # the token count is not a model request


CHAT_TOOLS = [{"type": "function", "function": {
    "name": "skill", "parameters": {"type": "object", "properties": {"skill": {}}}}}]


@pytest.mark.parametrize("stream", [True, False])
def test_the_chat_mock_answers_a_scripted_tool_call_then_text(stream: bool) -> None:
    with ChatMock() as api:
        run_id, run = api.new_run([ToolCall(None, {"skill": "x"}, property="skill")])
        url = f"{api.base_url(run_id)}/chat/completions"
        body = {"model": "gpt-4.1", "stream": stream, "messages": [], "tools": CHAT_TOOLS}
        first, second = post_json(url, body)[1], post_json(url, body)[1]
    if stream:
        chunks = sse_data(first)
        assert chunks[-1] == "[DONE]"
        call = chunks[1]["choices"][0]["delta"]["tool_calls"][0]  # the name, then the arguments
        call["function"]["arguments"] = chunks[2]["choices"][0]["delta"]["tool_calls"][0][
            "function"]["arguments"]
        assert chunks[3]["choices"][0]["finish_reason"] == "tool_calls"
        assert sse_data(second)[1]["choices"][0]["delta"]["content"] == "ok"
    else:
        call = json.loads(first)["choices"][0]["message"]["tool_calls"][0]
        assert json.loads(second)["choices"][0]["message"]["content"] == "ok"
    assert call["id"] == openai_chat.call_id(1)
    assert (call["function"]["name"], json.loads(call["function"]["arguments"])) == \
        ("skill", {"skill": "x"})
    assert run.called == ["skill"] and len(run.requests) == 2


def test_the_chat_mock_lists_models_and_refuses_the_rest() -> None:
    with ChatMock() as api:
        run_id, _ = api.new_run()
        with urllib.request.urlopen(f"{api.base_url(run_id)}/models", timeout=10) as reply:
            models = json.loads(reply.read())
        with pytest.raises(urllib.error.HTTPError) as error:
            post_json(f"{api.base_url(run_id)}/embeddings", {})
    assert [model["id"] for model in models["data"]] == list(openai_chat.MODELS)
    assert error.value.code == 404


def test_a_request_without_a_run_prefix_goes_to_the_default_run() -> None:
    with ChatMock() as api:
        post_json(f"{api.base_url()}/chat/completions", {"messages": []})
        assert api.new_run()[1].requests == []
        assert api.run().requests == [{"messages": []}]
        assert api.reset().requests == []


# -- Gemini CLI's requests ---------------------------------------------------------------------

def _gemini_request(project: Path) -> dict[str, Any]:
    listing = (
        "# Available Agent Skills\n\n<available_skills>\n"
        "  <skill>\n    <name>skill-creator</name>\n    <description>Built in.</description>\n"
        "    <location>/cache/bundle/builtin/skill-creator/SKILL.md</location>\n  </skill>\n"
        f"  <skill>\n    <name>mine</name>\n    <description>\"Quoted\"</description>\n"
        f"    <location>{project}/.gemini/skills/mine/SKILL.md</location>\n  </skill>\n"
        "  <skill>\n    <name>personal</name>\n    <description>P.</description>\n"
        "    <location>~/.gemini/skills/personal/SKILL.md</location>\n  </skill>\n"
        "</available_skills>\n")
    return {"systemInstruction": {"parts": [{"text": "intro\n" + listing}]}, "contents": []}


def test_gemini_listing_keeps_the_project_and_home_skills_exactly() -> None:
    project = Path("/tmp/p")
    entries = gemini_cli.listing_entries(_gemini_request(project), project, project)
    assert entries == {
        "mine": "<skill>\n    <name>mine</name>\n    <description>\"Quoted\"</description>\n"
                "    <location>/tmp/p/.gemini/skills/mine/SKILL.md</location>\n  </skill>",
        "personal": "<skill>\n    <name>personal</name>\n    <description>P.</description>\n"
                    "    <location>~/.gemini/skills/personal/SKILL.md</location>\n  </skill>"}
    assert gemini_cli.listing_entries({"contents": []}, project, project) is None


def _activation(output: str, *, synthetic: bool = False) -> dict[str, Any]:
    response = {"functionResponse": {"name": "activate_skill", "response": {"output": output}}}
    contents = [{"role": "model", "parts": [{"functionCall": {"name": "activate_skill"}}]},
                {"role": "user", "parts": [response]}]
    if synthetic:
        contents.append({"role": "user", "parts": [{"text": "alpha beta"}]})
    return {"contents": contents}


ACTIVATED = ('<activated_skill name="mine">\n  <instructions>\n    Line one.\nLine two.\n'
             '  </instructions>\n\n  <available_resources>\n  tree\n  </available_resources>\n'
             '</activated_skill>')


@pytest.mark.parametrize(("output", "kind", "text"), [
    (ACTIVATED, "rendered", "Line one.\nLine two."),
    ('Skill "nope" not found. Available skills are: mine', "not-found",
     'Skill "nope" not found. Available skills are: mine'),
    ("params/name must be equal to one of the allowed values", "not-found",
     "params/name must be equal to one of the allowed values"),
    ("something else went wrong", "refused", "something else went wrong"),
])
def test_gemini_tool_outcome_reads_the_activation(output: str, kind: str, text: str) -> None:
    outcome = gemini_cli.tool_outcome([{"contents": []}, _activation(output)])
    assert (outcome.kind, outcome.text) == (kind, text)


def test_gemini_slash_outcome_reads_the_synthetic_call_and_the_follow_up() -> None:
    requests = [_activation(ACTIVATED, synthetic=True)]
    outcome = gemini_cli.slash_outcome(requests, "")
    assert (outcome.kind, outcome.text) == ("rendered", "Line one.\nLine two.")
    assert gemini_cli.follow_up(requests) == "alpha beta"
    assert gemini_cli.slash_outcome([{"contents": []}], "").kind == "not-found"
    assert gemini_cli.slash_outcome([], "Unknown command: /x").kind == "not-found"
    assert gemini_cli.slash_outcome([], "").kind == "missing"
    assert gemini_cli.tool_outcome([{"contents": []}]).kind == "missing"


def test_gemini_home_trusts_the_project(tmp_path: Path) -> None:
    home = gemini_cli.gemini_home(None, tmp_path / "project")
    try:
        trusted = json.loads((home / ".gemini/trustedFolders.json").read_text())
        settings = json.loads((home / ".gemini/settings.json").read_text())
    finally:
        import shutil

        shutil.rmtree(home)
    assert trusted == {str(tmp_path / "project"): "TRUST_FOLDER"}
    assert settings["telemetry"] == {"enabled": False}


# -- Copilot CLI's requests --------------------------------------------------------------------

COPILOT_LISTING = (
    "<skill>\n<available_skills>\n"
    "<skill>\n  <name>mine</name>\n  <description>It&apos;s mine</description>\n"
    "  <location>project</location>\n</skill>\n"
    "<skill>\n  <name>github-pr-media</name>\n  <description>Built in.</description>\n"
    "  <location>builtin</location>\n</skill>\n"
    "</available_skills>\n</skill>")


def test_copilot_listing_leaves_out_the_builtin_skills() -> None:
    request = {"messages": [{"role": "system", "content": "x\n" + COPILOT_LISTING},
                            {"role": "user", "content": "hi"}]}
    assert copilot_cli.listing_entries(request) == {
        "mine": "<skill>\n  <name>mine</name>\n  <description>It&apos;s mine</description>\n"
                "  <location>project</location>\n</skill>"}
    assert copilot_cli.listing_entries({"messages": []}) is None


CONTEXT = ('<skill-context name="mine">\nBase directory for this skill: /p/.github/skills/mine\n\n'
           'Body a\n\n</skill-context>')


@pytest.mark.parametrize(("tool_reply", "after", "kind", "text"), [
    ('Skill "mine" loaded successfully.', CONTEXT, "rendered",
     "Base directory for this skill: /p/.github/skills/mine\n\nBody a\n"),
    ('Skill "x" not found. Available skills: mine', None, "not-found",
     'Skill "x" not found. Available skills: mine'),
    ("Permission denied", None, "refused", "Permission denied"),
])
def test_copilot_tool_outcome(tool_reply: str, after: str | None, kind: str, text: str) -> None:
    messages: list[dict[str, Any]] = [
        {"role": "assistant", "tool_calls": [{"id": "call_mock0001"}]},
        {"role": "tool", "tool_call_id": "call_mock0001", "content": tool_reply}]
    if after is not None:
        messages.append({"role": "user", "content": after})
    outcome = copilot_cli.tool_outcome([{"messages": []}, {"messages": messages}], "mine")
    assert (outcome.kind, outcome.text) == (kind, text)


def test_copilot_slash_outcome() -> None:
    typed = [{"messages": [{"role": "system", "content": ""}, {"role": "user", "content":
              "<current_datetime>now</current_datetime>\n\nThe user explicitly invoked the "
              f"\"/mine\" skill. Follow its instructions now.\n\n{CONTEXT}"}]}]
    outcome = copilot_cli.slash_outcome(typed, "")
    assert (outcome.kind, outcome.text) == (
        "rendered", "Base directory for this skill: /p/.github/skills/mine\n\nBody a\n")
    prompt = [{"messages": [{"role": "user", "content": "/mine is not a skill"}]}]
    assert copilot_cli.slash_outcome(prompt, "").kind == "not-found"
    assert copilot_cli.slash_outcome([], "✗ Unknown command: /x").kind == "not-found"
    assert copilot_cli.slash_outcome([], "").kind == "missing"


def test_screen_text_drops_terminal_sequences() -> None:
    raw = b"\x1b[2J\x1b[1;1H\x1b[38;5;12mType your message\x1b[0m\x1b]0;title\x07 ok"
    assert screen_text(raw) == "Type your message ok"


# -- the cases ---------------------------------------------------------------------------------

def test_every_case_is_well_formed() -> None:
    found = [case for case in cases() if case.name.startswith(("gm-", "cp-"))]
    assert len(found) >= 10
    for case in found:
        skills = case.folder / "skills"
        assert case.about and skills.is_dir(), case.name
        assert list(skills.rglob("SKILL.md")), case.name
        for invoke in case.invokes:
            assert set(invoke.modes) <= {"slash", "tool"}, case.name


def test_a_case_expands_each_mode_into_one_invocation() -> None:
    case = load_case(CASES / "cp-manual-only")
    assert [(i.skill, i.mode) for i in case.invocations(copilot_cli.ADAPTER)] == [
        ("cp-manual", "tool"), ("cp-model-only", "slash")]


@pytest.mark.parametrize(("screen", "ready"), [
    (" >   Type your message or @path/to/file     2 skills", True),
    (" >   Type your message or @path/to/file", False),  # the skills are not loaded yet
    ("Loading 1 skill", False),
])
def test_gemini_ui_is_ready_once_its_skills_are_loaded(screen: str, ready: bool) -> None:
    assert gemini_cli.ui_ready(screen) is ready


def test_copilot_ui_is_ready_once_its_skills_are_loaded() -> None:
    assert copilot_cli.ui_ready("▀ 3 skills ▄ … / commands · ? help · tab next tab")
    assert not copilot_cli.ui_ready("/ commands · ? help")


@pytest.mark.parametrize(("screen", "line", "ran"), [
    # no command of that name: the completion selected /clear and Enter ran it (0.61.0)
    (" > /clear\n\n >   Type your message or @path/to/file\n", "/undescribed", "/clear"),
    (" > /undescribed\n", "/undescribed", None),  # the line as typed
    (" > /und\n > /undescribed a b\n", "/undescribed a b", None),  # typing in progress
    (" >   Type your message or @path/to/file\n2. /help for more information\n", "/x", None),
])
def test_gemini_a_line_its_completion_replaced(screen: str, line: str, ran: str | None) -> None:
    assert gemini_cli.replaced_on_screen(screen, line) == ran
