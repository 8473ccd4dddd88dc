"""Bundle the wave-lsp server and its dependencies into bundled/libs for one VS Code platform.

    python3 scripts/bundle.py [--target linux-x64]

Layout of Microsoft's vscode-python-tools-extension-template and of ruff-vscode: the extension
starts `<python> -I bundled/tool/serve.py`, which puts bundled/libs first on sys.path, so the user
needs only a Python, not `pip install wave-lsp`.

The wave-lsp wheel is built from this checkout (`pip wheel --no-deps`); its dependencies come from
PyPI as binary wheels for the target platform (never built here: `--only-binary=:all:`). Compiled
dependencies are per CPython version unless they are abi3; extension modules carry their ABI in
their file name (`rpds.cpython-312-x86_64-linux-gnu.so`), so the modules of every supported
version sit side by side in one folder. bundled/bundle.json records the target, the Python
versions the bundle works with and the packages; the extension checks the interpreter against it.
The optional `mcp` extra is not bundled (the extension does not use it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT = Path(__file__).resolve().parent.parent
REPO = CLIENT.parent
BUNDLED = CLIENT / "bundled"
LIBS = BUNDLED / "libs"

# VS Code target -> pip platform tags (oldest glibc/macOS first: the most portable wheels).
PLATFORMS = {
    "linux-x64": ["manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux-arm64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "alpine-x64": ["musllinux_1_2_x86_64"],
    "alpine-arm64": ["musllinux_1_2_aarch64"],
    "darwin-x64": ["macosx_10_12_x86_64", "macosx_10_9_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64"],
    "win32-x64": ["win_amd64"],
    "win32-arm64": ["win_arm64"],
}
# The first version resolves the dependencies; the others add their compiled modules.
VERSIONS = ["3.11", "3.12", "3.13", "3.14"]


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True)


def platform_args(target: str, version: str) -> list[str]:
    args = ["--only-binary=:all:", "--implementation", "cp", "--python-version", version, "--no-compile"]
    for tag in PLATFORMS[target]:
        args += ["--platform", tag]
    return args


def compiled(libs: Path) -> list[tuple[str, str]]:
    """(name, version) of the installed distributions whose wheel is not pure and not abi3."""
    found = []
    for info in sorted(libs.glob("*.dist-info")):
        wheel = (info / "WHEEL").read_text()
        tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
        if all(tag.endswith("-none-any") or "-abi3-" in tag for tag in tags):
            continue
        name, version = info.name[: -len(".dist-info")].rsplit("-", 1)
        found.append((name, version))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="linux-x64", choices=sorted(PLATFORMS))
    options = parser.parse_args()
    shutil.rmtree(LIBS, ignore_errors=True)
    (BUNDLED / "bundle.json").unlink(missing_ok=True)
    LIBS.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        wheels = Path(scratch) / "wheels"
        pip("wheel", "--no-deps", "--wheel-dir", str(wheels), str(REPO))
        (wheel,) = wheels.glob("wave_lsp-*.whl")
        pip("install", "--target", str(LIBS), *platform_args(options.target, VERSIONS[0]), str(wheel))
        versions = [VERSIONS[0]]
        extra = compiled(LIBS)
        for version in VERSIONS[1:]:
            into = Path(scratch) / f"py{version}"
            try:
                pip("install", "--no-deps", "--target", str(into), *platform_args(options.target, version),
                    *[f"{name}=={v}" for name, v in extra])
            except subprocess.CalledProcessError:
                print(f"bundle: no wheels of {extra} for Python {version}: not supported", file=sys.stderr)
                continue
            for path in into.rglob("*"):
                destination = LIBS / path.relative_to(into)
                if path.is_file() and not destination.exists():
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, destination)
            versions.append(version)
    # Console scripts point at the build machine's interpreter: useless here.
    shutil.rmtree(LIBS / "bin", ignore_errors=True)
    for cache in list(LIBS.rglob("__pycache__")):
        shutil.rmtree(cache, ignore_errors=True)
    packages = {}
    for info in sorted(LIBS.glob("*.dist-info")):
        name, version = info.name[: -len(".dist-info")].rsplit("-", 1)
        packages[name] = version
    manifest = {"target": options.target, "python": versions, "packages": packages}
    (BUNDLED / "bundle.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(p.stat().st_size for p in LIBS.rglob("*") if p.is_file())
    print(f"bundled/libs: wave-lsp {packages.get('wave_lsp')} for {options.target}, "
          f"Python {', '.join(versions)}, {len(packages)} packages, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
