// Finding the `wave-lsp` server to start.
//
// The .vsix carries the server and its dependencies in `bundled/libs` (built for one platform by
// `npm run bundle`, described by `bundled/bundle.json`). It runs with any CPython the manifest
// lists (3.11–3.14), the first of: the setting `wave.server.pythonPath`, the Python extension's
// active interpreter, `python3` (then `python`) on PATH — as `<python> -I bundled/tool/serve.py`,
// which puts bundled/libs first on sys.path (-I: the user's PYTHONPATH, user site-packages and a
// `wave_lsp` folder in the workspace cannot shadow the bundle; the environment stays the user's, so
// the commands an allowed preview runs see no trace of the bundle).
// The setting `wave.server.path` replaces all that with a user-installed `wave-lsp` executable.
// Each candidate is probed before use so that a wrong one gives a clear error, not a dead client.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

export interface ServerCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where the command came from, for messages. */
  origin: string;
}

interface BundleManifest {
  target: string;
  python: string[];
  packages: Record<string, string>;
}

interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  };
}

/** The interpreter's facts, or why it cannot run the bundle: `python -I -c PROBE <libs>`. */
const PROBE = [
  "import sys",
  "sys.path.insert(0, sys.argv[1])",
  "v = '%d.%d' % sys.version_info[:2]",
  "print(sys.implementation.name, v)",
  "import wave_lsp.cli, tree_sitter, tree_sitter_bash, rpds, pygls",
  "print('ok', wave_lsp.__version__)",
].join("\n");

function run(command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string): Promise<{ ok: boolean; stdout: string; problem: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 20_000, env, cwd }, (error, stdout, stderr) => {
      const last = (stderr.trim() || error?.message || "").split("\n").pop() ?? "";
      resolve({ ok: !error, stdout, problem: last });
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

function readManifest(extensionPath: string): BundleManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(extensionPath, "bundled", "bundle.json"), "utf8")) as BundleManifest;
  } catch {
    return undefined;
  }
}

/** What the bundled server needs, for messages. */
export function requirement(extensionPath: string): string {
  const manifest = readManifest(extensionPath);
  if (!manifest) {
    return "Python ≥ 3.11";
  }
  const versions = manifest.python;
  return `CPython ${versions[0]}–${versions[versions.length - 1]}`;
}

/** The first candidate that can run the server, or the reasons why none can. */
export async function findServer(extensionPath: string): Promise<ServerCommand | string[]> {
  const problems: string[] = [];
  const settings = vscode.workspace.getConfiguration("wave");

  const executable = settings.get<string>("server.path", "").trim();
  if (executable) {
    const probe = await run(executable, ["--version"]);
    if (probe.ok) {
      return { command: executable, args: ["serve"], env: process.env, origin: "the setting wave.server.path" };
    }
    return [`${executable} (the setting wave.server.path): ${probe.problem}`];
  }

  const manifest = readManifest(extensionPath);
  const libs = path.join(extensionPath, "bundled", "libs");
  const launcher = path.join(extensionPath, "bundled", "tool", "serve.py");
  if (!manifest || !fs.existsSync(libs) || !fs.existsSync(launcher)) {
    return [`this copy of the extension has no bundled server (${libs}); build it with \`npm run bundle\` or set wave.server.path`];
  }
  const candidates: { python: string; origin: string }[] = [];
  const configured = settings.get<string>("server.pythonPath", "").trim();
  if (configured) {
    candidates.push({ python: configured, origin: "the setting wave.server.pythonPath" });
  } else {
    const fromExtension = await pythonExtensionInterpreter();
    if (fromExtension) {
      candidates.push({ python: fromExtension, origin: "the Python extension's interpreter" });
    }
    candidates.push({ python: "python3", origin: "PATH" }, { python: "python", origin: "PATH" });
  }
  for (const { python, origin } of candidates) {
    // cwd = the bundle's folder: the probe must not import a wave_lsp of the workspace.
    const probe = await run(python, ["-I", "-c", PROBE, libs], process.env, libs);
    const [implementation, version] = (probe.stdout.split("\n")[0] ?? "").trim().split(" ");
    if (!implementation) {
      problems.push(`${python} (${origin}): ${probe.problem || "does not run"}`);
    } else if (implementation !== "cpython" || !manifest.python.includes(version)) {
      problems.push(`${python} (${origin}) is ${implementation} ${version}; the bundled server needs ${requirement(extensionPath)}`);
    } else if (!probe.ok) {
      problems.push(`${python} (${origin}, Python ${version}) cannot load the bundled server: ${probe.problem}`);
    } else {
      return { command: python, args: ["-I", launcher], env: process.env, origin: `${origin}, Python ${version}, bundled server` };
    }
  }
  return problems;
}
