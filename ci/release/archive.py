"""Writes a release archive (.tar.gz or .zip) of one directory, reproducibly:
entries sorted, owner root, mtime SOURCE_DATE_EPOCH (default: the commit's),
modes 0755 for executables and 0644 otherwise, whatever the build machine's
umask or tar flavour (GNU, BSD, Git Bash). PLATCHECK_ARCHIVE_LEVEL sets the
compression level (default 9; the tests use 1 for their fake releases).

usage: archive.py OUT DIR
"""

import gzip
import os
import sys
import tarfile
import time
import zipfile


def entries(root):
    base = os.path.dirname(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            yield path, os.path.relpath(path, base).replace(os.sep, "/")


def mode(path, name):
    executable = os.access(path, os.X_OK) or name.endswith(".exe")
    return 0o755 if executable else 0o644


def main():
    out, root = sys.argv[1], os.path.abspath(sys.argv[2].rstrip("/\\"))
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or time.time())
    if out.endswith(".zip"):
        stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for path, name in entries(root):
                info = zipfile.ZipInfo(name, stamp)
                info.external_attr = (0o100000 | mode(path, name)) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(path, "rb") as src, z.open(info, "w") as dst:
                    while chunk := src.read(1 << 20):
                        dst.write(chunk)
    elif out.endswith(".tar.gz"):
        level = int(os.environ.get("PLATCHECK_ARCHIVE_LEVEL", "9"))
        with open(out, "wb") as f, gzip.GzipFile(
            fileobj=f, mode="wb", mtime=epoch, filename="", compresslevel=level
        ) as g, tarfile.open(fileobj=g, mode="w", format=tarfile.PAX_FORMAT) as t:
            for path, name in entries(root):
                info = t.gettarinfo(path, name)
                info.uid = info.gid = 0
                info.uname = info.gname = "root"
                info.mtime = epoch
                info.mode = mode(path, name)
                with open(path, "rb") as src:
                    t.addfile(info, src)
    else:
        sys.exit(f"archive.py: {out}: the name must end in .tar.gz or .zip")


if __name__ == "__main__":
    main()
