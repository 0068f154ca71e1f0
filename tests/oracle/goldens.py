"""The golden check every oracle shares: regenerate its goldens into a temporary folder
and compare them, byte for byte, with the committed ones."""

import filecmp
import os
import shutil
import tempfile


def check(write_goldens_to, is_own, golden_dir, shown_dir, regenerate):
    """Calls `write_goldens_to(folder)` (returns the paths or names it wrote) on a
    temporary folder and compares those files with the files of `golden_dir` for which
    `is_own(name)` holds. Prints each missing, extra or differing file (as
    `shown_dir/name`), a summary line and, on a problem, the `regenerate` command.
    Returns the number of problems."""
    tmp = tempfile.mkdtemp(prefix="oracle_goldens_")
    try:
        fresh = {os.path.basename(w) for w in write_goldens_to(tmp)}
        present = {n for n in os.listdir(golden_dir) if is_own(n)} if os.path.isdir(golden_dir) else set()
        missing = sorted(fresh - present)
        extra = sorted(present - fresh)
        differing = sorted(n for n in fresh & present
                           if not filecmp.cmp(os.path.join(tmp, n), os.path.join(golden_dir, n),
                                              shallow=False))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for title, names in (("missing", missing), ("extra", extra), ("differing", differing)):
        for n in names:
            print("%s: %s/%s" % (title, shown_dir, n))
    problems = len(missing) + len(extra) + len(differing)
    print("%d golden(s) checked: %d missing, %d extra, %d differing"
          % (len(fresh), len(missing), len(extra), len(differing)))
    if problems:
        print("regenerate with: %s" % regenerate)
    return problems
