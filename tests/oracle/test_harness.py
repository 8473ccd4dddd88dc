"""The harness itself: it reports a disagreement when a prediction is wrong (a deliberately wrong
`claude-code` profile value), and its mock and request readers behave (tests/oracle/README.md)."""

from __future__ import annotations

import dataclasses
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.oracle.claude import Observed, listing_entries, tool_outcomes
from tests.oracle.mock_api import MockApi, tool_use_id
from tests.oracle.oracle import Oracle, disagreement, predict
from tests.oracle.probes import BOTH_MODES, PROBES, load_probe


def _wrong_profile(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    """The `claude-code` target with `changes`, for every settings object made from now on."""
    from wave_lsp.core.checking import config
    from wave_lsp.core.facts.profiles import CLAUDE_CODE, PROFILES

    # `config.parse_target` looks the target up in its own reference to the table
    monkeypatch.setattr(config, "PROFILES",
                        {**PROFILES, "claude-code": dataclasses.replace(CLAUDE_CODE, **changes)})


def test_a_wrong_prediction_is_reported(oracle: Oracle,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With `$N` counted from 1 instead of 0, the rendered text no longer matches what Claude
    Code sent; with the real profile it does."""
    probe = load_probe(PROBES / "arg-indexed")
    oracle.run([probe])
    built = oracle.built[probe.name]
    assert disagreement(probe, "slash#0", oracle.claude[probe.name], predict(built)) is None
    _wrong_profile(monkeypatch, argument_base=1)
    wrong = predict(built)
    problem = disagreement(probe, "slash#0", oracle.claude[probe.name], wrong)
    assert problem is not None
    assert "First x, second y." in problem  # what Claude Code rendered
    assert "First $0, second x." in problem  # what the wrong profile predicts


def test_a_wrong_listing_is_reported(oracle: Oracle, monkeypatch: pytest.MonkeyPatch) -> None:
    """A profile that keys skills by frontmatter `name` instead of folder lists the wrong name."""
    probe = load_probe(PROBES / "fm-name-differs")
    oracle.run([probe])
    built = oracle.built[probe.name]
    _wrong_profile(monkeypatch, keys_skills_by_folder=False)
    problem = disagreement(probe, "listed", oracle.claude[probe.name], predict(built))
    assert problem is not None and "other-name" in problem


def test_mock_streams_and_records() -> None:
    """The mock answers streaming and plain requests, records each body under its run, and
    answers the first request offering the Skill tool with a `tool_use` of it."""
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "Skill", "input_schema": {"properties": {"skill": {}}}}]}
    with MockApi() as api:
        run_id, run = api.new_run([("demo", "a b")])

        def post(payload: dict[str, Any]) -> bytes:
            request = urllib.request.Request(api.base_url(run_id) + "/v1/messages",
                                             data=json.dumps(payload).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as response:
                return bytes(response.read())

        first = json.loads(post(body))
        streamed = post({**body, "stream": True}).decode()
    assert first["content"] == [{"type": "tool_use", "id": tool_use_id(1), "name": "Skill",
                                 "input": {"skill": "demo", "args": "a b"}}]
    events = [line.split(": ", 1)[1] for line in streamed.splitlines()
              if line.startswith("event: ")]
    assert events == ["message_start", "content_block_start", "content_block_delta",
                      "content_block_stop", "message_delta", "message_stop"]
    assert '"text_delta"' in streamed
    assert [request["messages"] for request in run.requests] == [body["messages"]] * 2
    assert run.tool_name == "Skill"


def test_request_readers() -> None:
    """The listing's entries (a description running over two lines stays one entry) and a
    Skill-tool result with the rendered text after it."""
    listing = ("intro\n\nThe following skills are available for use with the Skill tool:\n\n"
               "- one: First\n- kit:two (label): Second\ncontinued\n- three\n\nToday is.")
    request = {"messages": [{"role": "system", "content": [{"type": "text", "text": listing}]}]}
    entries = listing_entries(request)
    assert [(e.name, e.label, e.line) for e in entries] == [
        ("one", None, "- one: First"), ("kit:two", "label", "- kit:two (label): Second\ncontinued"),
        ("three", None, "- three")]
    follow_up = {"messages": [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tool_use_id(1), "content": "Launching skill: x"},
        {"type": "text", "text": "Body"}]}]}
    observed = Observed("p", [request, follow_up], "", "", 0, Path("/"))
    found = tool_outcomes(observed)[tool_use_id(1)]
    assert (found.kind, found.text) == ("rendered", "Body")


def test_probe_areas_and_counts() -> None:
    """At least 80 probes, across the areas, with project, personal and plugin skills."""
    from tests.oracle.probes import repository_probes

    probes = repository_probes()
    assert len(probes) >= 80
    areas = {probe.area for probe in probes}
    assert {"frontmatter", "arguments", "injection", "discovery", "invocation"} <= areas
    assert areas >= BOTH_MODES
    assert any(probe.plugin_dirs for probe in probes)
    assert any(probe.source is not None and (probe.source / "home" / ".claude" / "skills").is_dir()
               for probe in probes)


def test_the_ci_subset_names_shared_cases_that_exist() -> None:
    """.ci/run's subset (tests/oracle/ci_subset.toml) names real shared cases, and the subset
    keeps every runtime's own cases."""
    import tomllib

    from tests.oracle.differential import cases
    from tests.oracle.test_differential import _in_subset

    names = {case.name for case in cases()}
    chosen = tomllib.loads((Path(__file__).parent / "ci_subset.toml").read_text("utf-8"))
    assert set(chosen["shared"]) <= names
    assert _in_subset("cx-dmi-ignored", "ci") and _in_subset("fm-basic", "ci")
    assert not _in_subset("fm-block-scalar", "ci") and _in_subset("fm-block-scalar", None)


def _marker(folder: Path) -> Path | None:
    found = folder / "bin"
    return found if found.is_file() else None


@pytest.mark.parametrize(("present", "fill_fails", "expected_fills", "expected"), [
    (True, False, 0, "old"),    # already installed: left as it is, nothing filled
    (False, False, 1, "new"),   # filled in a staging folder, renamed into place
    (False, True, 1, None),     # a failing fill leaves neither the folder nor its staging
])
def test_staged_installs_into_place_once(tmp_path: Path, present: bool, fill_fails: bool,
                                         expected_fills: int, expected: str | None) -> None:
    from tests.oracle.runtimes._npm import Unavailable, staged

    folder = tmp_path / "runtime-1.0"
    if present:
        folder.mkdir()
        (folder / "bin").write_text("old")
    fills: list[Path] = []

    def fill(staging: Path) -> None:
        fills.append(staging)
        if fill_fails:
            raise Unavailable("no")
        (staging / "bin").write_text("new")

    if fill_fails:
        with pytest.raises(Unavailable):
            staged(folder, _marker, fill)
    else:
        found = staged(folder, _marker, fill)
        assert found is not None and found.read_text() == expected
    assert len(fills) == expected_fills
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == \
        ([] if expected is None else ["runtime-1.0"])


@pytest.mark.parametrize(("load", "cores", "expected"), [
    (0.3, 2, 1.0),    # idle
    (4.0, 2, 1.0),    # the harness's own two processes per core
    (8.0, 2, 2.0),    # shared: twice the usual
    (16.0, 2, 4.0),   # the load seen beside six other sessions
    (500.0, 2, 8.0),  # capped: a wait still ends
    (16.0, 8, 1.0),   # the same load on more cores is usual
])
def test_the_harness_waits_longer_on_a_loaded_machine(monkeypatch: pytest.MonkeyPatch,
                                                      load: float, cores: int,
                                                      expected: float) -> None:
    from tests.oracle.runtimes import common

    monkeypatch.setattr(common.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(common.os, "cpu_count", lambda: cores)
    assert common.patience() == expected


def test_the_grace_before_typing_is_scaled_when_the_prompt_first_shows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the UI shows its prompt but no skills count, the line is typed after the grace
    times `patience()` (fixed when the prompt first shows), at once when the count shows."""
    from tests.oracle.runtimes import common

    now = [100.0]
    monkeypatch.setattr(common.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(common, "patience", lambda: 4.0)
    check = common.ready_or_settled(lambda screen: "3 skills" in screen, "> ", grace=15.0)
    assert not check("loading")
    assert not check("> ")
    now[0] += 59.0
    assert not check("> ")
    now[0] += 1.0
    assert check("> ")
    assert common.ready_or_settled(lambda screen: "3 skills" in screen, "> ")("> 3 skills")
