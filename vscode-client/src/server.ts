// Finding the `wave-lsp` server to start: the `wave.server.pythonPath` setting, else the Python
// extension's active interpreter, else `wave-lsp` on PATH. Each candidate is probed before use so
// that a wrong interpreter gives a clear error instead of a silent, dead client.
import { execFile } from "node:child_process";
import * as vscode from "vscode";

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from, for messages: "setting", "Python extension" or "PATH". */
  origin: string;
}

interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  };
}

function probe(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 15_000 }, (error, _stdout, stderr) => {
      resolve(error ? (stderr.trim() || error.message) : undefined);
    });
  });
}

async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>("ms-python.python");
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    return api.environments?.getActiveEnvironmentPath(folder)?.path;
  } catch {
    return undefined;
  }
}

/** The first candidate that can run the server, or the reasons why none can. */
export async function findServer(): Promise<ServerCommand | string[]> {
  const problems: string[] = [];
  const configured = vscode.workspace.getConfiguration("wave").get<string>("server.pythonPath", "").trim();
  const candidates: { python?: string; origin: string }[] = [];
  if (configured) {
    candidates.push({ python: configured, origin: "the setting wave.server.pythonPath" });
  }
  const fromExtension = await pythonExtensionInterpreter();
  if (fromExtension) {
    candidates.push({ python: fromExtension, origin: "the Python extension's interpreter" });
  }
  for (const candidate of candidates) {
    const python = candidate.python as string;
    const problem = await probe(python, ["-c", "import wave_lsp"]);
    if (problem === undefined) {
      return { command: python, args: ["-m", "wave_lsp", "serve"], origin: candidate.origin };
    }
    problems.push(`${python} (${candidate.origin}): ${problem.split("\n").pop() ?? problem}`);
  }
  const onPath = await probe("wave-lsp", ["--version"]);
  if (onPath === undefined) {
    return { command: "wave-lsp", args: ["serve"], origin: "PATH" };
  }
  problems.push(`wave-lsp on PATH: ${onPath}`);
  return problems;
}
