// "Wave: Preview Skill Invocation": asks for the arguments, asks the server
// (`wave.previewInvocation`) and shows the result in a read-only virtual document beside the skill.
// The document starts exactly like the prompt the model receives; the decision on every injected
// command is summarised after it.
import * as vscode from "vscode";

export const PREVIEW_SCHEME = "wave-preview";

export interface Injection {
  pattern: string;
  command: string;
  decision: "allow" | "ask" | "deny";
  reason: string;
  rule: string | null;
  ruleSource: string | null;
  executed: boolean;
  exitCode: number | null;
  range: { start: { line: number; character: number } };
}

export interface PreviewResult {
  ok: boolean;
  text: string | null;
  error: string | null;
  mode?: string;
  skill?: { name: string; dir: string | null; source: string | null };
  injections?: Injection[];
  warnings?: string[];
}

/** Holds the rendered previews that the virtual documents show. */
export class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }

  async show(skill: vscode.Uri, result: PreviewResult, args: string): Promise<void> {
    const name = result.skill?.name ?? "skill";
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name} invocation.md`, query: skill.toString() });
    this.contents.set(uri.toString(), render(result, args));
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }
}

export function render(result: PreviewResult, args: string): string {
  const lines: string[] = [];
  if (result.ok && result.text !== null) {
    lines.push(result.text.replace(/\n+$/, ""));
  } else {
    lines.push(`Invocation aborted: ${result.error ?? "unknown error"}`, "", "The model receives nothing.");
  }
  const injections = result.injections ?? [];
  lines.push("", "<!-- ─────────────── wave-lsp preview ─────────────── -->");
  lines.push(`Mode: ${result.mode ?? "dry-run"} · arguments: ${args ? JSON.stringify(args) : "(none)"}`);
  if (injections.length === 0) {
    lines.push("Injected commands: none.");
  } else {
    lines.push(`Injected commands (${injections.length}):`);
    injections.forEach((item, index) => {
      const verdict = item.decision === "allow" ? "allowed" : "DENIED";
      const source = item.rule ? ` by \`${item.rule}\` (${item.ruleSource ?? "?"})` : "";
      const ran = item.executed ? `, ran (exit code ${item.exitCode ?? "?"})` : ", not run";
      lines.push(`${index + 1}. line ${item.range.start.line + 1}: \`${item.command}\` — ${verdict}${source}${ran}`);
      if (item.decision !== "allow") {
        lines.push(`   ${item.reason}`);
      }
    });
  }
  for (const warning of result.warnings ?? []) {
    lines.push(`Warning: ${warning}`);
  }
  return lines.join("\n") + "\n";
}
