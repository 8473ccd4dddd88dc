// The Wave Skills extension: starts `wave-lsp serve` for SKILL.md files and adds the commands
// Preview Skill Invocation, List Skills, Restart Server and Show Output.
//
// VS Code (1.139+) gives SKILL.md the language id `skill`, older versions `markdown`: files are
// therefore selected by name pattern, whatever their language.
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { PREVIEW_SCHEME, PreviewDocuments, PreviewResult } from "./preview";
import { findServer, requirement } from "./server";

const SERVER_PREVIEW = "wave.previewInvocation";
const SELECTOR = [
  { scheme: "file", pattern: "**/SKILL.md" },
  { scheme: "file", pattern: "**/skill.md" },
  { scheme: "file", pattern: "**/{.wave,.claude,.agents}/skills/*.md" },
  // files that mention skills: find-references, unknown `/name` (SK152), hover, definition, rename
  { scheme: "file", pattern: "**/{CLAUDE,CLAUDE.local,AGENTS}.md" },
  { scheme: "file", pattern: "**/.claude/{agents,commands}/**/*.md" },
  { scheme: "file", pattern: "**/.claude-plugin/{plugin,marketplace}.json" },
  { scheme: "untitled", language: "skill" },
];

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let extensionPath = "";
const previews = new PreviewDocuments();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel("Wave Skills", { log: true });
  context.subscriptions.push(
    output,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand("wave.previewSkillInvocation", (uri?: vscode.Uri) => preview(uri)),
    vscode.commands.registerCommand("wave.showSkillList", () => listSkills()),
    vscode.commands.registerCommand("wave.restartServer", () => restart()),
    vscode.commands.registerCommand("wave.showOutput", () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("wave.server")) {
        await restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

async function start(): Promise<void> {
  const found = await findServer(extensionPath);
  if (Array.isArray(found)) {
    output.appendLine("Cannot start wave-lsp:\n  " + found.join("\n  "));
    void offerInterpreter(found);
    return;
  }
  output.appendLine(`Starting ${found.command} ${found.args.join(" ")} (from ${found.origin})`);
  const serverOptions: ServerOptions = {
    command: found.command,
    args: found.args,
    transport: TransportKind.stdio,
    options: { env: found.env },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: SELECTOR,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    synchronize: { configurationSection: "wave" },
    middleware: {
      // The server's "Preview invocation" code lens runs the preview UI, not a bare request.
      executeCommand: async (command, args, next) => {
        if (command === SERVER_PREVIEW) {
          const target = args[0] as { uri?: string } | undefined;
          return preview(target?.uri ? vscode.Uri.parse(target.uri) : undefined);
        }
        return (await next(command, args)) as unknown;
      },
    },
  };
  client = new LanguageClient("wave", "Wave Skills", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    output.appendLine(`wave-lsp failed to start: ${String(error)}`);
    void offerInterpreter([String(error)]);
  }
}

async function restart(): Promise<void> {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => undefined);
  }
  await start();
}

async function offerInterpreter(problems: string[]): Promise<void> {
  const pick = "Select Interpreter";
  const show = "Show Output";
  const answer = await vscode.window.showErrorMessage(
    `Wave Skills cannot start its language server: it needs ${requirement(extensionPath)} (set wave.server.pythonPath, or wave.server.path to a wave-lsp you installed). ${problems[0] ?? ""}`,
    pick,
    show,
  );
  if (answer === show) {
    output.show(true);
  } else if (answer === pick) {
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, title: `Python interpreter (${requirement(extensionPath)})` });
    if (chosen?.[0]) {
      await vscode.workspace.getConfiguration("wave").update("server.pythonPath", chosen[0].fsPath, vscode.ConfigurationTarget.Global);
    }
  }
}

function running(): LanguageClient | undefined {
  if (client?.state === State.Running) {
    return client;
  }
  void vscode.window.showErrorMessage("Wave Skills: the language server is not running (see Wave: Show Output).");
  return undefined;
}

async function preview(uri?: vscode.Uri): Promise<void> {
  const skill = uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!skill || !/\.md$/i.test(skill.path)) {
    void vscode.window.showWarningMessage("Open a SKILL.md to preview its invocation.");
    return;
  }
  const server = running();
  if (!server) {
    return;
  }
  const args = await vscode.window.showInputBox({
    title: "Preview skill invocation",
    prompt: "Arguments, as typed after /skill-name (empty for none)",
    placeHolder: "e.g. 42 \"two words\"",
  });
  if (args === undefined) {
    return;
  }
  const allow = vscode.workspace.getConfiguration("wave").get<boolean>("preview.allowExecution", false);
  const result = (await server.sendRequest(ExecuteCommandRequest.type, {
    command: SERVER_PREVIEW,
    // show: false: this extension shows the answer in its own view (no window/showDocument)
    arguments: [{ uri: skill.toString(), arguments: args, mode: allow ? "execute" : "dry-run", show: false }],
  })) as PreviewResult;
  await previews.show(skill, result, args);
}

interface ListedSkill {
  name: string;
  scope: string;
  path: string;
  modelInvocable: boolean;
  userInvocable: boolean;
  listingChars: number;
  shadowedBy: string | null;
}

async function listSkills(): Promise<void> {
  const server = running();
  if (!server) {
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const result = (await server.sendRequest(ExecuteCommandRequest.type, {
    command: "wave.listSkills",
    arguments: folder ? [{ uri: folder.toString() }] : [],
  })) as { skills: ListedSkill[]; target: string };
  const items = result.skills.map((skill) => ({
    label: `/${skill.name}`,
    description: `${skill.scope}${skill.shadowedBy ? " · shadowed" : ""}${skill.modelInvocable ? "" : " · manual only"}`,
    detail: `${skill.path} · ${skill.listingChars} listing characters`,
    skill,
  }));
  const chosen = await vscode.window.showQuickPick(items, { title: `Skills (${result.target})`, matchOnDetail: true });
  if (chosen) {
    const path = chosen.skill.path;
    const target = path.startsWith("/") || !folder ? vscode.Uri.file(path) : vscode.Uri.joinPath(folder, path);
    await vscode.window.showTextDocument(target);
  }
}
