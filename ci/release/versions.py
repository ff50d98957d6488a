"""Every place that pins platcheck's own version, in one list: checks that
they all say the same version, or moves them all to a new one.

usage: versions.py --check VERSION   exit 1 listing every pin that differs
       versions.py --set VERSION     rewrite every pin (then review the diff,
                                     add the CHANGELOG section, commit)

Each pin is a file and a regular expression whose group 1 is the version.
A pin that matches nothing is an error too: a moved sentence must not make
the check pass by silence.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEMVER = r"([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)"

# (file, pattern, how many matches at least)
PINS = [
    ("Cargo.toml", r"(?m)\A(?:.*\n)*?version = \"" + SEMVER + r"\"", 1),
    ("Cargo.lock", r"name = \"platcheck\"\nversion = \"" + SEMVER + r"\"", 1),
    ("fuzz/Cargo.lock", r"name = \"platcheck\"\nversion = \"" + SEMVER + r"\"", 1),
    ("pyproject.toml", r"(?m)^version = \"" + SEMVER + r"\"", 1),
    (".pre-commit-hooks.yaml", r"\"platcheck==" + SEMVER + r"\"", 1),
    ("README.md", r"(?m)^platcheck " + SEMVER + r": today is", 1),
    ("README.md", r"/platcheck/platcheck/v" + SEMVER + r"/", 2),
    ("README.md", r"rev: v" + SEMVER, 1),
    ("README.md", r"platcheck/platcheck@v" + SEMVER, 1),
    ("README.md", r"with a `# v" + SEMVER, 1),
    ("README.md", r"platcheck==" + SEMVER, 1),
    ("docs/github-action.md", r"platcheck/platcheck@[0-9a-f]{40} # v" + SEMVER, 1),
    ("docs/github-action.md", r"rev: v" + SEMVER, 1),
    ("schemas/README.md", r"/platcheck/platcheck/v" + SEMVER + r"/", 1),
    ("editors/vscode/package.json", r"(?m)^  \"version\": \"" + SEMVER + r"\"", 1),
    ("editors/vscode/README.md", r"platcheck-" + SEMVER + r"\.vsix", 2),
]


def found(text, pattern):
    return list(re.finditer(pattern, text))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--check", "--set"):
        sys.exit(__doc__)
    mode, version = sys.argv[1], sys.argv[2].removeprefix("v")
    if not re.fullmatch(SEMVER, version):
        sys.exit(f"versions.py: {version!r} is not a version like 1.2.3")
    wrong = []
    for name, pattern, least in PINS:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        matches = found(text, pattern)
        if len(matches) < least:
            wrong.append(f"{name}: expected {least}+ matches of {pattern!r}, found {len(matches)}")
            continue
        if mode == "--check":
            for m in matches:
                if m.group(1) != version:
                    line = text.count("\n", 0, m.start(1)) + 1
                    wrong.append(f"{name}:{line}: {m.group(1)} (expected {version})")
        else:
            out, last = [], 0
            for m in matches:
                out.append(text[last : m.start(1)])
                out.append(version)
                last = m.end(1)
            out.append(text[last:])
            path.write_text("".join(out), encoding="utf-8")
    if wrong:
        print("\n".join(wrong), file=sys.stderr)
        sys.exit(1)
    print(f"every version pin says {version}" if mode == "--check" else f"pins set to {version}")


if __name__ == "__main__":
    main()
