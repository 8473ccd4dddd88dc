"""The Codex and OpenCode adapters without their runtimes: the mocks (streaming, recorded bodies,
scripted tool calls), the request readers on request bodies of the shapes Codex 0.171.0 and OpenCode
1.18.33 send, the argument words of `opencode run`, the steps run beside a mock (`common.run_steps`), and
the cases' files (tests/oracle/README.md)."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle.differential import CASES, cases, load_case
from tests.oracle.mocks.client import post_json, sse_data
from tests.oracle.mocks.openai_chat import ChatMock, message_texts, tool_results
from tests.oracle.mocks.openai_responses import ResponsesMock, input_messages
from tests.oracle.mocks.recording import ToolCall
from tests.oracle.runtimes import codex, opencode
from tests.oracle.runtimes.base import Invocation, RuntimeAdapter
from tests.oracle.runtimes.common import Step, StepResult, run_steps

# -- the mocks --------------------------------------------------------------------------------------

def test_chat_mock_streams_scripted_calls_once_then_text() -> None:
    skill = {"type": "function", "function": {"name": "skill", "parameters": {}}}
    with ChatMock() as mock:
        run_id, run = mock.new_run([ToolCall("skill", {"name": "plain"})])
        url = mock.base_url(run_id) + "/chat/completions"
        body = {"model": "m", "stream": True, "stream_options": {"include_usage": True},
                "messages": [{"role": "user", "content": "go"}], "tools": [skill]}
        kind, first = post_json(url, body)
        _, second = post_json(url, body)
        _, plain = post_json(url, {**body, "stream": False})
    assert kind == "text/event-stream"
    events = sse_data(first)
    assert events[-1] == "[DONE]" and events[-2]["usage"]["total_tokens"] == 2
    calls = [d["tool_calls"][0] for e in events[:-1] for c in e["choices"]
             if (d := c["delta"]).get("tool_calls")]
    assert calls[0]["function"]["name"] == "skill" and calls[0]["id"] == "call_mock0001"
    assert json.loads(calls[1]["function"]["arguments"]) == {"name": "plain"}
    assert [c["finish_reason"] for e in events[:-2] for c in e["choices"]][-1] == "tool_calls"
    text = "".join(c["delta"].get("content") or "" for e in sse_data(second)[:-1]
                   for c in e["choices"])
    assert text == "ok"  # the script answers one request only
    assert json.loads(plain)["choices"][0]["message"]["content"] == "ok"
    assert len(run.requests) == 3 and run.paths[0] == "POST /v1/chat/completions"


def test_chat_mock_waits_for_the_tool_and_serves_models() -> None:
    with ChatMock() as mock:
        run_id, run = mock.new_run([ToolCall("skill", {"name": "x"})])
        url = mock.base_url(run_id)
        _, payload = post_json(url + "/chat/completions", {"stream": True, "messages": []})
        with urllib.request.urlopen(url + "/models", timeout=10) as answer:
            models = json.loads(answer.read())
    assert not run.answered and "tool_calls" not in payload.decode()
    assert models["data"][0]["id"] == "mock-model"


def test_responses_mock_streams_a_message_and_function_calls() -> None:
    with ResponsesMock() as mock:
        run_id, run = mock.new_run([ToolCall("exec_command", {"cmd": "ls"})])
        url = mock.base_url(run_id) + "/responses"
        body = {"model": "mock-model", "input": [], "tools": [{"type": "function",
                                                                "name": "exec_command"}]}
        kind, first = post_json(url, body)
        _, second = post_json(url, body)
    assert kind == "text/event-stream"
    names = [line[7:] for line in first.decode().split("\n") if line.startswith("event: ")]
    assert names == ["response.created", "response.output_item.added",
                     "response.function_call_arguments.delta", "response.output_item.done",
                     "response.completed"]
    done = sse_data(first)[-1]["response"]["output"][0]
    assert done["type"] == "function_call" and json.loads(done["arguments"]) == {"cmd": "ls"}
    message = sse_data(second)[-1]["response"]["output"][0]
    assert message["content"][0]["text"] == "ok" and len(run.requests) == 2


# -- Codex's requests -----------------------------------------------------------------------------

_SKILLS = ("<skills_instructions>\n## Skills\nA skill is …\n### Skill roots\n"
           "- `r0` = `/h/.codex/skills/.system`\n- `r1` = `/p/.agents/skills`\n"
           "### Available skills\n- imagegen: Makes images. (file: r0/imagegen/SKILL.md)\n"
           "- twin: One: two (file: r1/a/SKILL.md)\n- twin: Other. (file: r1/b/SKILL.md)\n"
           "</skills_instructions>\n<permissions instructions>…")
_CODEX_BODY = {"input": [
    {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "x"}]},
    {"type": "message", "role": "developer", "content": [{"type": "input_text",
                                                           "text": _SKILLS}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "$twin a"}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text":
        "<skill>\n<name>twin</name>\n<path>/h/p/SKILL.md</path>\n---\nname: twin\n---\n\n"
        "</skill>"}]}]}


def test_codex_listing_expands_roots_and_leaves_out_system_skills() -> None:
    assert codex.listing_entries(_CODEX_BODY, "/h/.codex/skills/.system") == {
        "twin": "- twin: One: two (file: /p/.agents/skills/a/SKILL.md)",
        "twin#2": "- twin: Other. (file: /p/.agents/skills/b/SKILL.md)"}
    assert codex.listing_entries({"input": []}, None) == {}
    assert input_messages(_CODEX_BODY, "user")[0] == "$twin a"


def test_codex_mention_outcome() -> None:
    result = StepResult(0, "", "", [_CODEX_BODY], [])
    rendered = codex.mention_outcome(result, "twin", Path("/h"))
    assert rendered.kind == "rendered"
    assert rendered.text.startswith("<skill>\n<name>twin</name>\n<path>~/p/SKILL.md</path>\n")
    assert codex.mention_outcome(result, "other", Path("/h")).kind == "not-found"
    assert codex.mention_outcome(StepResult(1, "", "boom", [], []), "x", Path("/h")).kind \
        == "missing"
    assert codex.mention(Invocation("a", "b c", "slash")) == "$a b c"


def test_codex_config_names_the_mock_and_trusts_the_project() -> None:
    text = codex.config_toml(Path("/tmp/p"), "http://127.0.0.1:4321/v1")
    assert 'base_url = "http://127.0.0.1:4321/v1"' in text
    assert '[projects."/tmp/p"]\ntrust_level = "trusted"' in text
    assert "[analytics]\nenabled = false" in text and "plugins = false" in text


# -- OpenCode's requests --------------------------------------------------------------------------

_OC_SYSTEM = ("…\n<available_skills>\n  <skill>\n    <name>customize-opencode</name>\n"
              "    <description>Built in.</description>\n    <location>&lt;built-in&gt;"
              "</location>\n  </skill>\n  <skill>\n    <name>plain</name>\n    <description>A "
              "<b> & c</description>\n    <location>/p/.opencode/skills/plain/SKILL.md"
              "</location>\n  </skill>\n</available_skills>")


def test_opencode_listing_leaves_out_built_in_skills() -> None:
    body = {"messages": [{"role": "system", "content": _OC_SYSTEM}]}
    assert opencode.listing_entries(body) == {"plain": (
        "<skill>\n    <name>plain</name>\n    <description>A <b> & c</description>\n"
        "    <location>/p/.opencode/skills/plain/SKILL.md</location>\n  </skill>")}
    assert message_texts(body, "system") == [_OC_SYSTEM]


def test_opencode_outcomes() -> None:
    first = {"messages": [{"role": "system", "content": "s"},
                          {"role": "user", "content": [{"type": "text", "text": "Body /h/x"}]}]}
    assert opencode.slash_outcome(StepResult(0, "", "", [first], []), Path("/h")).text == \
        "Body ~/x"
    unknown = json.dumps({"type": "error", "error": {"name": "UnknownError"}})
    found = opencode.slash_outcome(StepResult(1, unknown, "", [], []), Path("/h"))
    assert (found.kind, found.exact) == ("not-found", False)
    second = {"messages": [{"role": "tool", "tool_call_id": "call_mock0001",
                            "content": '<skill_content name="plain">\nx\n</skill_content>'}]}
    assert tool_results(second) == {"call_mock0001": '<skill_content name="plain">\nx\n'
                                                     '</skill_content>'}
    rendered = opencode.tool_outcome(StepResult(0, "", "", [first, second], []), Path("/h"))
    assert rendered.kind == "rendered" and rendered.text.startswith("<skill_content")
    missing = {"messages": [{"role": "tool", "tool_call_id": "c", "content":
                             'Skill "x" not found. Available skills: plain'}]}
    assert opencode.tool_outcome(StepResult(0, "", "", [first, missing], []),
                                 Path("/h")).kind == "not-found"


@pytest.mark.parametrize(("typed", "words"), [
    ('alpha "beta gamma" delta', ["alpha", "beta gamma", "delta"]),
    ("a  b", ["a", "", "b"]), ('"a" b', ['"a"', "b"]), ("\\$1 y", ["\\$1", "y"]),
    ('" "', [" "]), ('"a b', ['"a', "b"]),
])
def test_command_words_give_the_typed_text_back(typed: str, words: list[str]) -> None:
    assert opencode.command_words(typed) == words
    assert opencode.joined(words) == typed


@given(st.lists(st.text(alphabet="ab $1\\'", max_size=6), min_size=1, max_size=5))
def test_command_words_round_trip(words: list[str]) -> None:
    """Whatever `run` would send for some words, the split finds words that send it again."""
    typed = opencode.joined(words)
    found = opencode.command_words(typed)
    assert found is not None and opencode.joined(found) == typed


# -- the namespace runner and the cases ---------------------------------------------------------------

def test_a_step_reaches_the_mock_inside_the_namespace() -> None:
    """A process run by `run_steps` reaches the mock at the URL it is given, and (inside the
    loopback-only namespace, where one can be made) nothing else; the mock records its request."""
    def steps(base_url: str) -> list[Step]:
        script = (f"import json, urllib.request\n"
                  f"r = urllib.request.Request('{base_url}/chat/completions', "
                  f"json.dumps({{'messages': []}}).encode(), "
                  f"{{'Content-Type': 'application/json'}})\n"
                  f"print(json.load(urllib.request.urlopen(r))['choices'][0]['message']"
                  f"['content'])\n"
                  f"import socket\n"
                  f"try:\n socket.create_connection(('1.1.1.1', 53), timeout=2); print('out')\n"
                  f"except OSError: print('no route')\n")
        return [Step([sys.executable, "-c", script], {}, "/", timeout=60)]

    results, note = run_steps(ChatMock, steps)
    assert results and results[0].returncode == 0, (results, note)
    assert results[0].requests == [{"messages": []}]
    if note is not None:
        pytest.skip(f"no network namespace here: {note}")
    assert results[0].stdout.split() == ["ok", "no", "route"]


def test_the_cases_are_well_formed() -> None:
    """Each case folder has an `about`, at least one invocation, a skill for each invoked name,
    and the prefix of the runtime it is restricted to."""
    folders = [f for f in sorted(CASES.iterdir()) if f.name.startswith(("cx-", "oc-"))]
    assert len(folders) >= 14
    for folder in folders:
        case = load_case(folder)
        assert case.about and case.invokes, folder.name
        runtime = {"cx-": "codex", "oc-": "opencode"}[folder.name[:3]]
        assert case.runtimes == (runtime,), folder.name
        texts = "".join(p.read_text() for p in (folder / "skills").rglob("SKILL.md"))
        for invoke in case.invokes:
            assert f"name: {invoke.skill}\n" in texts, (folder.name, invoke.skill)
            assert set(invoke.modes) <= {"slash", "tool"}
    assert {c.name for c in cases() if c.applies_to("codex")} >= {"cx-duplicate-name",
                                                                  "cx-dmi-ignored"}


# -- absent runtimes --------------------------------------------------------------------------------

@pytest.mark.parametrize("adapter", [codex.ADAPTER, opencode.ADAPTER], ids=lambda a: a.name)
def test_an_absent_runtime_is_a_note_not_a_crash(adapter: RuntimeAdapter, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAVE_LSP_ORACLE_CACHE", str(tmp_path / "cache"))
    assert adapter.executable() is None
    seen = adapter.observe(tmp_path, tmp_path, tmp_path, [Invocation("x", None, "slash")])
    assert seen.listing is None and seen.outcomes == {}
    assert "not installed" in seen.notes[0] and str(tmp_path / "cache") in seen.notes[0]
