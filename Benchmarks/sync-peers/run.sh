#!/usr/bin/env bash
# gridstore's sync against Loro and Yrs on the same workloads, in one run: a 10,000-item grid,
#   - apply: every size changed in one change, applied on the other device and stored;
#   - sync: 1,000 offline changes on each side, then one sync both ways, stored;
#   - export: what a peer lacks after the 10,000 changes;
#   - bytes a size change takes on the wire;
# medians of ROUNDS rounds (default 5). gridstore runs as processes of a release build, less
# its start-up (`gridstore --version`); the peers run in process, each stored document a file
# written with fsync. Loro and pycrdt are installed from PyPI into a virtual environment of
# this folder's own (benchmarks only: no build or test needs them).
#
#   Benchmarks/sync-peers/run.sh [ROUNDS] [GRIDSTORE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-5}
gridstore=${2:-}
if [ -z "$gridstore" ]; then
    (cd "$root" && swift build -c release --product gridstore >&2)
    gridstore=$root/.build/release/gridstore
fi
venv=$root/.build/sync-peers-venv
if ! "$venv/bin/python" -c 'import loro, pycrdt' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q loro pycrdt >&2
fi
ours=$(python3 "$here/gridstore_side.py" "$gridstore" 10000 1000 "$rounds")
theirs=$("$venv/bin/python" "$here/peers.py" 10000 1000 "$rounds")
python3 - "$ours" "$theirs" "$rounds" <<'PY'
import json, sys
figures = {**json.loads(sys.argv[1]), **json.loads(sys.argv[2])}
peers = ["gridstore", "Loro", "Yrs"]
rows = [("apply 10,000 size changes and persist (ms)", "apply"), ("1,000 offline changes on each side, sync both ways (ms)", "sync"),
        ("export what a peer lacks, 10,000 changes (ms)", "export"), ("bytes a size change on the wire", "bytesPerChange")]
print("Sync of a 10,000-item grid, medians of %s rounds (gridstore: processes less its start-up of %.1f ms)"
      % (sys.argv[3], figures["gridstore"]["startup"]))
print("| work | " + " | ".join(peers) + " |")
print("|---|" + "---:|" * len(peers))
for title, key in rows:
    print("| %s | %s |" % (title, " | ".join("%.1f" % figures[peer][key] for peer in peers)))
print("| sync with nothing new, a process (ms) | %.2f | - | - |" % figures["gridstore"]["idleSync"])
loro = figures["Loro"]
ours = figures["gridstore"]
print("goals: apply %s Loro's (%.1f vs %.1f ms); sync %s (%.1f vs %.1f ms); export at most 10 ms (%.1f); at most 16 bytes a change (%.1f)" % (
    "within" if ours["apply"] <= loro["apply"] else "SLOWER than", ours["apply"], loro["apply"],
    "within" if ours["sync"] <= loro["sync"] else "SLOWER than", ours["sync"], loro["sync"], ours["export"], ours["bytesPerChange"]))
PY
