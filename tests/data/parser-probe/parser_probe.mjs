// Copied from the runtimes reference (2026-12-01) with the cases marked `added` (2026-12-02).
// Re-implements the frontmatter handling of three open-source loaders, verbatim where possible,
// and runs them on the same inputs. Needs: npm install js-yaml@4 gray-matter@4 yaml@2
// Gemini CLI: packages/core/src/skills/skillLoader.ts (google-gemini/gemini-cli 5411f113)
// Roo Code:   src/services/skills/SkillsManager.ts (RooCodeInc/Roo-Code cb836567) -> gray-matter
// Cline ext:  apps/vscode/.../user-instructions/frontmatter.ts (cline/cline 21cb8d25) -> js-yaml JSON_SCHEMA
// Cline SDK:  sdk/packages/core/src/extensions/config/user-instruction-config-loader.ts -> YAML.parse ('yaml')
// OpenCode:   packages/opencode/src/config/markdown.ts (anomalyco/opencode 0a8a0ed8) -> gray-matter, then fallbackSanitization, then gray-matter
//             + skill/index.ts (048f74f4): zod {name: string, description: string}
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const jsyaml = require('js-yaml');
const matter = require('gray-matter');
const YAML = require('yaml');

const GEMINI_RE = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;
function geminiSimple(content) {
  const lines = content.split(/\r?\n/); let name, description;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const n = line.match(/^\s*name:\s*(.*)$/); if (n) { name = n[1].trim(); continue; }
    const d = line.match(/^\s*description:\s*(.*)$/);
    if (d) { const ds = [d[1].trim()];
      while (i + 1 < lines.length) { const nx = lines[i + 1]; if (nx.match(/^[ \t]+\S/)) { ds.push(nx.trim()); i++; } else break; }
      description = ds.filter(Boolean).join(' '); continue; }
  }
  return (name !== undefined && description !== undefined) ? { name, description } : null;
}
function gemini(text) {
  const m = text.match(GEMINI_RE); if (!m) return 'SKIPPED (no frontmatter match)';
  let via = 'js-yaml';
  try { const p = jsyaml.load(m[1]);
    if (p && typeof p === 'object' && typeof p.name === 'string' && typeof p.description === 'string')
      return `loaded via js-yaml: name=${JSON.stringify(p.name)} description=${JSON.stringify(p.description)}`;
    via = 'fallback (js-yaml parsed, but name/description not both strings)';
  } catch (e) { via = 'fallback (js-yaml threw: ' + e.message.split('\n')[0] + ')'; }
  const s = geminiSimple(m[1]);
  return s ? `loaded via ${via}: name=${JSON.stringify(s.name)} description=${JSON.stringify(s.description)}` : `SKIPPED (${via}; no string name+description)`;
}
function roo(text, dir) {
  matter.clearCache();
  try { const { data } = matter(text);
    if (!data.name || typeof data.name !== 'string') return "SKIPPED: missing required 'name'";
    if (!data.description || typeof data.description !== 'string') return "SKIPPED: missing required 'description'";
    if (data.name !== dir) return `SKIPPED: name "${data.name}" doesn't match directory "${dir}"`;
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(data.name) || data.name.length > 64) return 'SKIPPED: invalid name';
    const d = data.description.trim(); if (d.length < 1 || d.length > 1024) return 'SKIPPED: description length';
    return `loaded: description=${JSON.stringify(d)}`;
  } catch (e) { return 'SKIPPED: Failed to load skill (' + e.message.split('\n')[0] + ')'; }
}
// OpenCode fallbackSanitization, copied logic
function ocSanitize(content) {
  const match = content.match(/^---\r?\n([\s\S]*?)\r?\n---/); if (!match) return content;
  const frontmatter = match[1]; const lines = frontmatter.split(/\r?\n/); const result = [];
  for (const line of lines) {
    if (line.trim().startsWith('#') || line.trim() === '') { result.push(line); continue; }
    if (line.match(/^\s+/)) { result.push(line); continue; }
    const kv = line.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$/); if (!kv) { result.push(line); continue; }
    const key = kv[1]; const value = kv[2].trim();
    if (value === '' || value === '>' || value === '|' || value.startsWith('"') || value.startsWith("'")) { result.push(line); continue; }
    if (value.includes(':')) { result.push(`${key}: |-`); result.push(`  ${value}`); continue; }
    result.push(line);
  }
  return content.replace(frontmatter, () => result.join('\n'));
}
function opencode(text) {
  matter.clearCache();
  let md, via = 'gray-matter';
  try { md = matter(text); } catch (e) {
    try { md = matter(ocSanitize(text)); via = 'fallbackSanitization'; }
    catch (err) { return 'SKIPPED + Session.Event.Error: Failed to parse YAML frontmatter: ' + err.message.split('\n')[0]; }
  }
  const d = md.data;
  if (typeof d.name !== 'string' || typeof d.description !== 'string') return `SKIPPED silently (zod: name/description not both strings; via ${via})`;
  return `loaded via ${via}: name=${JSON.stringify(d.name)} description=${JSON.stringify(d.description)}`;
}
const FM = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;
function clineExt(text, dir) {
  const t = text.replace(/^\uFEFF/, ''); const m = t.match(FM); let data = {};
  if (m) { try { data = jsyaml.load(m[1], { schema: jsyaml.JSON_SCHEMA }) || {}; } catch (e) { data = {}; var err = e.message.split('\n')[0]; } }
  if (!data.name || typeof data.name !== 'string') return "SKIPPED: missing required 'name'" + (err ? ` (YAML error: ${err})` : '');
  if (!data.description || typeof data.description !== 'string') return "SKIPPED: missing required 'description'";
  if (data.name !== dir) return `SKIPPED: name "${data.name}" doesn't match directory "${dir}"`;
  return `loaded: description=${JSON.stringify(data.description)}`;
}
function clineSdk(text, dir) {
  const t = text.replace(/^\uFEFF/, ''); const m = t.match(FM); if (!m) return 'no frontmatter: name = folder, description undefined';
  let data; try { const p = YAML.parse(m[1]); data = p && typeof p === 'object' && !Array.isArray(p) ? p : {}; }
  catch (e) { return 'ERROR: Failed to parse YAML frontmatter: ' + e.message.split('\n')[0]; }
  if (data.name !== undefined && data.name !== null && typeof data.name !== 'string') return "ERROR: Frontmatter field 'name' must be a string.";
  if (data.description !== undefined && data.description !== null && typeof data.description !== 'string') return "ERROR: Frontmatter field 'description' must be a string.";
  return `loaded: name=${JSON.stringify((data.name ?? dir).trim())} description=${JSON.stringify(data.description?.trim())}`;
}
const D = 'my-skill';
const cases = {
  'plain': `---\nname: my-skill\ndescription: Does X. Use when Y.\n---\nBody\n`,
  'unquoted colon-space': `---\nname: my-skill\ndescription: Use when: the user asks about PDFs\n---\nBody\n`,
  'folded block scalar': `---\nname: my-skill\ndescription: >-\n  Does X.\n  Use when Y.\n---\nBody\n`,
  'duplicate key': `---\nname: my-skill\ndescription: first\ndescription: second\n---\nBody\n`,
  'name is a number': `---\nname: 123\ndescription: d\n---\nBody\n`,
  'UTF-8 BOM': `\uFEFF---\nname: my-skill\ndescription: d\n---\nBody\n`,
  'CRLF': `---\r\nname: my-skill\r\ndescription: d\r\n---\r\nBody\r\n`,
  'name != folder': `---\nname: other-name\ndescription: d\n---\nBody\n`,
  'Claude-style glob (alias)': `---\nname: my-skill\ndescription: d\npaths: **/*.ts\n---\nBody\n`,
  'block scalar + another bad line': `---\nname: my-skill\ndescription: >-\n  Does X.\n  Use when Y.\nargument-hint: [file]: optional\n---\nBody\n`,
  'quoted description + bad line': `---\nname: my-skill\ndescription: "Does X"\nwhen: a: b\n---\nBody\n`,
  'hyphenated key with colon': `---\nname: my-skill\ndescription: d\nargument-hint: file: optional\n---\nBody\n`,
  'description missing': `---\nname: my-skill\n---\nBody\n`,
  // added for wave-lsp's rule evidence (issue 27 item 5), 2026-12-02
  'tab indentation': `---\nname: my-skill\ndescription: d\nmetadata:\n\tauthor: me\n---\nBody\n`,
  'explicit !!str tag': `---\nname: my-skill\ndescription: !!str 5 tagged\n---\nBody\n`,
  'custom !foo tag': `---\nname: my-skill\ndescription: d\nversion: !foo bar\n---\nBody\n`,
  'frontmatter never closed': `---\nname: my-skill\ndescription: d\n# Body\n`,
  'frontmatter is a sequence': `---\n- name: my-skill\n- description: d\n---\nBody\n`,
};
for (const [label, text] of Object.entries(cases)) {
  console.log(`## ${label}`);
  console.log('  gemini-cli : ' + gemini(text));
  console.log('  roo-code   : ' + roo(text, D));
  console.log('  cline-ext  : ' + clineExt(text, D));
  console.log('  cline-sdk  : ' + clineSdk(text, D));
  console.log('  opencode   : ' + opencode(text));
}

// gray-matter quirk: matter() stores the file object in matter.cache BEFORE parsing. If parsing throws,
// a second call with the same string returns the cached object (data = {}) without throwing.
{
  const bad = cases['unquoted colon-space'];
  matter.clearCache();
  let first, second;
  try { matter(bad); first = 'no throw'; } catch (e) { first = 'threw: ' + e.message.split('\n')[0]; }
  try { const r = matter(bad); second = 'no throw, data=' + JSON.stringify(r.data); } catch (e) { second = 'threw'; }
  console.log('## gray-matter cache quirk (same invalid content parsed twice in one process)');
  console.log('  first call : ' + first);
  console.log('  second call: ' + second);
}
