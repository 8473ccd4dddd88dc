"""Generated SKILL.md texts (short run; the long run is `python -m tests.fuzz.long_run`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.grammar import skill_texts
from tests.fuzz.properties import check_cli_json, check_preview, check_text

EXAMPLES = int(os.environ.get("WAVE_LSP_FUZZ_EXAMPLES", "150"))
RELAXED = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                     HealthCheck.function_scoped_fixture])


@settings(max_examples=EXAMPLES, **RELAXED)
@given(skill_texts())
def test_generated_texts_satisfy_the_properties(text: str) -> None:
    check_text(text)


# 30 examples, each also run through the CLI in a subprocess: about 30 s on two idle cores, over
# 60 s with both cores busy (seen in the 20-run loop); 600 s still catches a hang
@pytest.mark.timeout(600)
@settings(max_examples=max(20, EXAMPLES // 5), **RELAXED)
@given(skill_texts())
def test_generated_skills_on_disk(tmp_path: Path, text: str) -> None:
    path = tmp_path / ".wave" / "skills" / "fuzz" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8", errors="surrogatepass")
    check_text(text, path)
    check_preview(text, path)
    check_cli_json(path)
