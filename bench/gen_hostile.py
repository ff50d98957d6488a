#!/usr/bin/env python3
"""Generates the inputs of bench/hostile.sh: the shapes issue 17 found
quadratic. Deterministic; Python 3 standard library only.

  one-line/      60,000 CREATE INDEX statements on one line (a finding each)
  many-lines/    the same statements, one per line (the linear reference)
  drift/         the clean example's Python/Go sibling docs, each grown to
                 1.4 MB by a section of differing lines
  glob/          a platcheck.yaml whose include has a 100 KB glob
"""
import random
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STATEMENTS = 60_000
DOC_BYTES = 1_400_000


def main(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    stmts = [f"CREATE INDEX i{i} ON t (a);" for i in range(STATEMENTS)]
    for name, sep in [("one-line", ""), ("many-lines", "\n")]:
        d = out / name
        d.mkdir(parents=True)
        (d / "m.sql").write_text(sep.join(stmts) + "\n")

    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "rho"]
    for stack, seed in [("python", 1), ("go", 2)]:
        src = REPO / "examples/clean/docs/architecture" / stack / "read-model-sync.md"
        text = src.read_text()
        r = random.Random(seed)
        lines, size = [], 0
        while size < DOC_BYTES:
            line = " ".join(r.choice(words) for _ in range(8))
            lines.append(line)
            size += len(line) + 1
        anchor = "## Projection ownership\n"
        text = text.replace(anchor, anchor + "\n" + "\n".join(lines) + "\n", 1)
        d = out / "drift/docs" / stack
        d.mkdir(parents=True)
        (d / "read-model-sync.md").write_text(text)

    g = out / "glob"
    g.mkdir()
    (g / "m.sql").write_text("SELECT 1;\n")
    (g / "platcheck.yaml").write_text(
        f'version: 1\ntoday: 2026-11-30\ninclude: ["*.sql", "{"a" * 100_000}"]\n'
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/platcheck-hostile"))
