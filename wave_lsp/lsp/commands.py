"""`workspace/executeCommand` handlers (PRODUCT.md *Language server*, commands).

`wave.previewInvocation` takes one object `{"uri", "arguments", "mode", "sessionId"?}` and returns
what `wave-lsp preview --format json` prints for the same input (the editor's unsaved text is used).
Execute mode runs commands only when the user enabled `wave.preview.allowExecution`; otherwise the
answer is a refusal with `ok: false` and nothing runs. The handler runs in a worker thread, so a
30-second command does not block the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wave_lsp.lsp.server import WaveLanguageServer

PREVIEW = "wave.previewInvocation"


def refusal(message: str, **extra: Any) -> dict[str, Any]:
    return {"version": 1, "ok": False, "text": None, "error": message, **extra}


def register(server: WaveLanguageServer) -> None:
    @server.thread()
    @server.command(PREVIEW)
    def preview_invocation(ls: WaveLanguageServer, params: dict) -> dict[str, Any]:
        try:
            return _preview(ls, params)
        except Exception as error:
            ls.log_problem(f"{PREVIEW} failed: {error!r}", error)
            return refusal(f"internal error: {error}")


def _preview(ls: WaveLanguageServer, params: Any) -> dict[str, Any]:
    if not isinstance(params, Mapping) or not isinstance(params.get("uri"), str):
        return refusal('expected one object {"uri": <SKILL.md URI>, "arguments": <string>, '
                       '"mode": "dry-run"|"execute"}')
    mode = params.get("mode", "dry-run")
    arguments = params.get("arguments", "")
    session = params.get("sessionId")
    if mode not in ("dry-run", "execute") or not isinstance(arguments, str) or (
            session is not None and not isinstance(session, str)):
        return refusal("`mode` must be dry-run or execute, `arguments` and `sessionId` strings")
    if mode == "execute" and not ls.state.client.allow_execution:
        return refusal("Execution is disabled: set `wave.preview.allowExecution` to true to run "
                       "allowed commands from the editor. Nothing was run.", mode=mode)
    analysis = ls.analysis(params["uri"])
    if analysis is None:
        return refusal(f"{params['uri']} is not a skill file the server can read")
    from wave_lsp.core.preview import invoke

    context = analysis.context
    result = invoke(context.document, context.location, context.settings, arguments, mode, session)
    return result.to_json()
