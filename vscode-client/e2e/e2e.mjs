// Drive code-server with headless Chromium: VS Code's own SKILL.md checks run only where the user
// maps SKILL.md back to its `skill` language (the extension maps it to Markdown), the Problems panel
// lists wave-lsp's codes and not VS Code's, completion offers `allowed-tools` inside the frontmatter
// and `context` once, and "Wave: Preview Skill Invocation" opens a
// document that starts with `Base directory for this skill:` (from the palette and from the code
// lens), "Wave: List Skills" lists the workspace's skills and opens the one picked, a `/name` no
// skill provides is reported in CLAUDE.md (SK152) and Go to References on a skill's name lists
// its mention in CLAUDE.md (a peek, or the mention itself when it is the only one).
// Screenshots go to $SHOTS.
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const BASE = process.env.CS_URL || "http://127.0.0.1:8089";
const FOLDER = process.env.WS_FOLDER;
const SHOTS = process.env.SHOTS || path.join(os.tmpdir(), "shots");
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pw-profile-"));  // run.sh points TMPDIR into its temp root
// Deadlines, not expectations: each step takes 1-3 s on an idle machine; on a loaded two-core
// machine VS Code's extension host needed more than 15 s, so the waits are generous (>= 10x).
const WAIT = 60_000;
const LONG_WAIT = 90_000;
const t0 = Date.now();
const lap = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const results = [];

let page;

async function check(name, body) {
  try {
    await body();
    results.push([name, true]);
    lap(`PASS ${name}`);
  } catch (error) {
    results.push([name, false]);
    lap(`FAIL ${name}: ${error.message.split("\n")[0]}`);
    await page.screenshot({ path: path.join(SHOTS, `failed-${results.length}.png`) }).catch(() => undefined);
  }
}

async function openFile(page, relative) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: WAIT });
  await input.fill(relative);
  const folder = path.dirname(relative);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: folder }).first();
  await row.waitFor({ timeout: WAIT });
  await row.click();
  await page.locator(".tab.active", { hasText: "SKILL.md" }).waitFor({ timeout: WAIT });
  await page.locator(".breadcrumbs-control", { hasText: path.basename(folder) }).first()
    .waitFor({ timeout: WAIT });
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
}

async function runCommand(page, title) {
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").fill(`>${title}`);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  await row.waitFor({ timeout: WAIT });
  await page.keyboard.press("Enter");
}

// Type `typed` at the start of line 4 of the `typing` skill (no other check opens it), ask for completion until a row labelled
// `label` is shown (a request sent before the server answers its first one may show nothing, so
// it is asked again, up to LONG_WAIT), hand the rows to `inspect`, then put the file back as it
// was on disk (File: Revert File), whatever happened, so that no later check sees the typing.
async function suggestAt(page, typed, label, inspect) {
  await openFile(page, ".wave/skills/typing/SKILL.md");
  await page.keyboard.press("Control+G");
  await page.locator(".quick-input-widget input").fill(":4");
  await page.keyboard.press("Enter");
  await page.keyboard.type(typed);
  const rows = page.locator(".suggest-widget .monaco-list-row");
  try {
    const deadline = Date.now() + LONG_WAIT;
    for (;;) {
      await page.keyboard.press("Control+Space");
      try {
        await rows.filter({ hasText: label }).first().waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await page.keyboard.press("Escape");
      }
    }
    await inspect(rows);
  } finally {
    await page.keyboard.press("Escape");
    await runCommand(page, "File: Revert File");
    // the revert is done when the tab is clean again (its change then reaches the server before
    // any later request from this client)
    await page.locator(".tab.active.dirty").waitFor({ state: "detached", timeout: LONG_WAIT });
  }
}

// what VS Code's own skill validator says about the broken skills (wave-lsp words it otherwise)
const VSCODE_OWN = ["must be 'true' or 'false'", "Duplicate key"];

async function languageMode(page) {
  const mode = page.locator("#status\\.editor\\.mode");
  await mode.waitFor({ timeout: WAIT });
  return (await mode.innerText()).trim();
}

async function problemRows(page) {
  return (await page.locator(".markers-panel .monaco-list-row").allInnerTexts())
    .map((row) => row.replace(/\s+/g, " "));
}

async function firstLine(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll(".editor-group-container.active .monaco-editor .view-line")];
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.length ? lines[0].textContent.replace(/\u00a0/g, " ") : "";
  });
}

const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"],
});
page = ctx.pages()[0] ?? (await ctx.newPage());
fs.mkdirSync(SHOTS, { recursive: true });
try {
  await page.goto(`${BASE}/?folder=${encodeURIComponent(FOLDER)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench", { timeout: 90_000 });
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60_000 });
  lap("workbench ready");

  // The control: where the user's files.associations says `skill`, VS Code's own validator runs
  // (so it is active in this VS Code, and a user can have it back); it must run nowhere else.
  await check("VS Code's own checks run where the user maps SKILL.md to `skill`", async () => {
    await openFile(page, ".wave/skills/control/SKILL.md");
    const mode = await languageMode(page);
    if (mode !== "Skill") throw new Error(`the control's language mode is ${JSON.stringify(mode)}`);
    await page.keyboard.press("Control+Shift+M");
    await page.locator(".markers-panel .monaco-list-row", { hasText: VSCODE_OWN[0] }).first()
      .waitFor({ timeout: LONG_WAIT });
    await page.screenshot({ path: path.join(SHOTS, "vscode-own-checks.png") });
    // closing the editor removes VS Code's findings (it checks open editors only)
    await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+W");
    await page.locator(".markers-panel .monaco-list-row", { hasText: VSCODE_OWN[0] })
      .first().waitFor({ state: "detached", timeout: WAIT });
  });

  await check("problems panel lists wave-lsp codes and not VS Code's own", async () => {
    await openFile(page, ".wave/skills/broken/SKILL.md");
    const mode = await languageMode(page);
    if (mode !== "Markdown") throw new Error(`SKILL.md's language mode is ${JSON.stringify(mode)}`);
    await page.keyboard.press("Control+Shift+M");
    for (const code of ["SK022", "SK090", "SK123"]) {
      await page.locator(".markers-panel .monaco-list-row", { hasText: code })
        .filter({ hasText: "wave-lsp" }).first().waitFor({ timeout: 60_000 });
    }
    const rows = await problemRows(page);
    for (const row of rows) console.log("  problem:", row);
    const own = rows.filter((row) => VSCODE_OWN.some((words) => row.includes(words)));
    if (own.length) throw new Error(`VS Code's own checks ran too: ${own.join(" | ")}`);
    await page.screenshot({ path: path.join(SHOTS, "problems.png") });
  });

  await check("completion offers allowed-tools in the frontmatter", async () => {
    await suggestAt(page, "allo", "allowed-tools", async () => {
      await page.screenshot({ path: path.join(SHOTS, "completion.png") });
    });
  });

  await check("completion offers `context` once (VS Code's own skill completion is off)", async () => {
    await suggestAt(page, "cont", "context", async (rows) => {
      await page.screenshot({ path: path.join(SHOTS, "completion-context.png") });
      // each row's label: its aria-label starts with it
      const offered = await rows.evaluateAll((list) => list.map((row) => row.getAttribute("aria-label") ?? ""));
      console.log("  offered:", offered.join(" | "));
      const count = offered.filter((label) => /^context\b/.test(label)).length;
      if (count !== 1) throw new Error(`\`context\` is offered ${count} times`);
    });
  });

  await check("preview opens the rendered invocation", async () => {
    await openFile(page, ".wave/skills/good/SKILL.md");
    await runCommand(page, "Wave: Preview Skill Invocation");
    const prompt = page.locator(".quick-input-widget", { hasText: "Arguments" });
    await prompt.waitFor({ timeout: WAIT });
    await page.locator(".quick-input-widget input").fill("world");
    await page.keyboard.press("Enter");
    await page.locator(".tab.active", { hasText: "invocation.md" }).waitFor({ timeout: LONG_WAIT });
    await page.waitForFunction(() => document.querySelector(
      ".editor-group-container.active .monaco-editor .view-line") !== null, null, { timeout: WAIT });
    const line = await firstLine(page);
    console.log("  first line:", line);
    if (!line.startsWith("Base directory for this skill: ")) {
      throw new Error(`first line is ${JSON.stringify(line)}`);
    }
    // beside the skill, not in its place: two editor groups, the SKILL.md still shown in the other
    const groups = await page.locator(".editor-group-container").count();
    const skillTab = page.locator(".editor-group-container:not(.active) .tab.active",
      { hasText: "SKILL.md" });
    if (groups < 2 || (await skillTab.count()) === 0) {
      throw new Error(`the preview is not beside the skill (${groups} editor group(s))`);
    }
    await page.screenshot({ path: path.join(SHOTS, "preview.png") });
  });
  await check("the code lens runs the preview", async () => {
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+W");  // close all editors
    await openFile(page, ".wave/skills/good/SKILL.md");
    const lens = page.locator(".codelens-decoration a", { hasText: "Preview invocation" }).first();
    await lens.waitFor({ timeout: LONG_WAIT });
    await lens.click();
    await page.locator(".quick-input-widget", { hasText: "Arguments" }).waitFor({ timeout: WAIT });
    await page.locator(".quick-input-widget input").fill("from the lens");
    await page.keyboard.press("Enter");
    await page.locator(".tab.active", { hasText: "invocation.md" }).waitFor({ timeout: LONG_WAIT });
    // the virtual document may still show an earlier preview for a moment: wait for this one
    await page.waitForFunction(() => [...document.querySelectorAll(
      ".editor-group-container.active .monaco-editor .view-line")]
      .some((e) => e.textContent.replace(/\u00a0/g, " ").includes("from the lens")),
      null, { timeout: WAIT });
    await page.screenshot({ path: path.join(SHOTS, "lens-preview.png") });
  });
  await check("List Skills shows the workspace's skills and opens one", async () => {
    await page.keyboard.press("Escape");
    await runCommand(page, "Wave: List Skills");
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "/broken" }).first();
    await row.waitFor({ timeout: LONG_WAIT });
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "/good" }).first()
      .waitFor({ timeout: WAIT });
    await page.screenshot({ path: path.join(SHOTS, "list-skills.png") });
    await row.click();
    await page.locator(".breadcrumbs-control", { hasText: "broken" }).first().waitFor({ timeout: WAIT });
  });
  await check("a /name no skill provides is reported in CLAUDE.md", async () => {
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+P");
    await page.locator(".quick-input-widget input").fill("CLAUDE.md");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "CLAUDE.md" }).first().click();
    await page.locator(".tab.active", { hasText: "CLAUDE.md" }).waitFor({ timeout: WAIT });
    await page.keyboard.press("Control+Shift+M");
    // the panel lists the whole workspace's problems and renders only the rows in view: filter
    const filter = page.locator(".viewpane-filter input, .markers-panel-action-filter input").first();
    await filter.waitFor({ timeout: WAIT });
    await filter.fill("goood");
    const row = page.locator(".markers-panel .monaco-list-row", { hasText: "SK152" })
      .filter({ hasText: "/goood" }).first();
    await row.waitFor({ timeout: LONG_WAIT });
    const text = (await row.innerText()).replace(/\s+/g, " ");
    console.log("  problem:", text);
    if (!text.includes("Did you mean `/good`?") && !text.includes("Did you mean /good?")) {
      throw new Error(`no suggestion in ${JSON.stringify(text)}`);
    }
    await page.screenshot({ path: path.join(SHOTS, "mention-problem.png") });
    await filter.fill("");
  });
  await check("Go to References on a skill's name reaches its mention in CLAUDE.md", async () => {
    await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+W");  // close all editors: one active SKILL.md tab after
    await openFile(page, ".wave/skills/good/SKILL.md");
    await page.keyboard.press("Control+G");
    await page.locator(".quick-input-widget input").fill(":2:8");
    await page.keyboard.press("Enter");
    await runCommand(page, "Go to References");
    // several references: a peek lists them; one (the mention in CLAUDE.md): VS Code goes there
    const listed = page.locator(".peekview-widget .monaco-list-row", { hasText: "CLAUDE.md" }).first();
    const jumped = page.locator(".tab.active", { hasText: "CLAUDE.md" }).first();
    await Promise.any([listed.waitFor({ timeout: LONG_WAIT }), jumped.waitFor({ timeout: LONG_WAIT })]);
    await page.screenshot({ path: path.join(SHOTS, "references.png") });
    if (await jumped.count()) {
      const at = (await page.locator("#status\\.editor\\.selection").innerText()).trim();
      console.log("  went to CLAUDE.md at", at);
      if (!at.includes("Ln 3, Col 12")) throw new Error(`the cursor is at ${JSON.stringify(at)}, not on /good`);
    }
    await page.keyboard.press("Escape");
  });
} catch (error) {
  console.log("FAILED:", error.message);
  results.push(["setup", false]);
} finally {
  await page.screenshot({ path: path.join(SHOTS, "last.png") }).catch(() => undefined);
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
const passed = results.filter(([, ok]) => ok).length;
const failed = results.length - passed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed === 9 ? 0 : 1);
