"""In-process tests of the analysis runs behind edit coalescing (`wave_lsp/lsp/state.py`,
docs/design/lsp.md *Edits coalesce*): one run per document text, finished by whoever needs it
first and never computed twice, abandoned by a newer text, a close or nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from wave_lsp.lsp import state as state_module
from wave_lsp.lsp.state import ServerState

TEXT = "---\nname: runs\ndescription: Runs. Use when asked.\n---\nRead [x](references/x.md).\n"
URI_PATH = ".wave/skills/runs/SKILL.md"


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ServerState, Path, list[str]]:
    path = tmp_path / URI_PATH
    path.parent.mkdir(parents=True)
    path.write_text(TEXT, "utf-8")
    (tmp_path / ".git").mkdir()
    started: list[str] = []
    real = state_module.check_file_steps

    def counting(path: Path, *args: Any, **kwargs: Any) -> Any:
        started.append(kwargs["text"])
        return real(path, *args, **kwargs)

    monkeypatch.setattr(state_module, "check_file_steps", counting)
    server_state = ServerState()
    server_state.set_client_settings({"personalSkills": False})
    return server_state, path, started


def _start(server_state: ServerState, path: Path, text: str, version: int):  # type: ignore[no-untyped-def]
    return server_state.start(path.as_uri(), path, text, version, "utf-16")


def test_a_request_finishes_the_run_in_progress_instead_of_starting_another(setup) -> None:  # type: ignore[no-untyped-def]
    server_state, path, started = setup
    run = _start(server_state, path, TEXT, 1)
    assert run is not None and not run.done
    run.advance()
    run.advance()  # part-way, as the edit task leaves it between slices
    assert _start(server_state, path, TEXT, 1) is run  # the same text: the same run
    analysis = server_state.analyse(path.as_uri(), path, TEXT, 1, "utf-16")
    assert analysis is not None and run.done and run.result is analysis
    assert started == [TEXT]  # computed once
    again = _start(server_state, path, TEXT, 1)
    assert again is not None and again.done and again.result is analysis  # from the cache
    assert started == [TEXT]


def test_a_newer_text_abandons_the_older_run(setup) -> None:  # type: ignore[no-untyped-def]
    server_state, path, started = setup
    old = _start(server_state, path, TEXT, 1)
    assert old is not None
    old.advance()
    newer = TEXT + "More.\n"
    new = _start(server_state, path, newer, 2)
    assert new is not None and new is not old
    assert old.done and old.result is None  # abandoned: never a result to publish
    assert old.finish() is None
    result = new.finish()
    assert result is not None and result.version == 2 and result.context.document.text == newer
    assert started == [TEXT, newer]


def test_a_run_that_outlives_new_settings_is_not_cached(setup) -> None:  # type: ignore[no-untyped-def]
    server_state, path, started = setup
    run = _start(server_state, path, TEXT, 1)
    assert run is not None
    run.advance()
    server_state.invalidate()  # settings or the index changed during the analysis
    assert run.finish() is not None
    fresh = _start(server_state, path, TEXT, 1)
    assert fresh is not None and fresh is not run and not fresh.done  # analysed again
    assert fresh.finish() is not None
    assert started == [TEXT, TEXT]


def test_closing_the_document_abandons_its_run(setup) -> None:  # type: ignore[no-untyped-def]
    server_state, path, _ = setup
    run = _start(server_state, path, TEXT, 1)
    assert run is not None
    run.advance()
    server_state.forget(path.as_uri())
    assert run.done and run.result is None


def test_a_failing_analysis_ends_its_run_and_the_next_start_tries_again(
        setup, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    server_state, path, _ = setup

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("broken")
        yield  # a generator

    real = state_module.check_file_steps
    monkeypatch.setattr(state_module, "check_file_steps", broken)
    run = _start(server_state, path, TEXT, 1)
    assert run is not None
    with pytest.raises(RuntimeError):
        run.finish()
    assert run.done and run.result is None
    monkeypatch.setattr(state_module, "check_file_steps", real)
    retry = _start(server_state, path, TEXT, 1)
    assert retry is not None and retry is not run and retry.finish() is not None


def test_not_a_skill_file_has_no_run(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    assert ServerState().start(readme.as_uri(), readme, "# Read me\n", 1, "utf-16") is None


def test_another_thread_cannot_advance_a_run(setup) -> None:  # type: ignore[no-untyped-def]
    """A run belongs to the thread that started it (the event loop's): a worker thread that
    asked for the same analysis would race the edit task inside the analysis generator
    (`ValueError: generator already executing`, seen once in CI from the preview command). It is
    refused at once instead, and the owner can still finish the run."""
    import threading

    server_state, path, _ = setup
    run = _start(server_state, path, TEXT, 1)
    assert run is not None
    run.advance()
    failures: list[BaseException] = []

    def from_a_worker() -> None:
        try:
            server_state.analyse(path.as_uri(), path, TEXT, 1, "utf-16")
        except RuntimeError as error:
            failures.append(error)

    worker = threading.Thread(target=from_a_worker)
    worker.start()
    worker.join()
    assert len(failures) == 1 and "thread that started it" in str(failures[0])
    assert run.finish() is not None
