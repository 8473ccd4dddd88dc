// Stops the .vsix build early, with a clear message, on a Node.js that cannot build it: vsce 3
// (@vscode/vsce 3.9.2, the version package-lock.json pins) declares `engines.node >= 20` and fails
// on Node 18 with "ReferenceError: File is not defined" halfway through packaging (Debian 12's
// Node is 18). Run first by `npm run package` and by scripts/release.
//   node scripts/check-node.js            # this Node; exit 1 with the reason when it is too old
//   node scripts/check-node.js 18.19.0    # a version given instead (the tests' table)
// Written in the oldest JavaScript, so that any Node runs it far enough to say so.
"use strict";

var MINIMUM = 20;

function problem(version) {
  var match = /^v?(\d+)\.\d+/.exec(String(version));
  if (!match) {
    return "cannot read the Node.js version " + JSON.stringify(version);
  }
  if (Number(match[1]) < MINIMUM) {
    return "building the VS Code extension (.vsix) needs Node.js " + MINIMUM + " or later " +
      "(vsce 3 requires it; older versions fail with \"ReferenceError: File is not defined\"); " +
      "this is Node.js " + String(version).replace(/^v/, "") + ". Install Node.js " + MINIMUM +
      " or later (nodejs.org, nvm, or a newer package of your distribution), or build the Python " +
      "packages alone: scripts/release --no-vsix";
  }
  return null;
}

module.exports = { MINIMUM: MINIMUM, problem: problem };

if (require.main === module) {
  var given = process.argv[2];
  var found = problem(given === undefined ? process.versions.node : given);
  if (found) {
    process.stderr.write("wave-lsp: " + found + "\n");
    process.exit(1);
  }
}
