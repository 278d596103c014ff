"""The sync workloads of Benchmarks/sync-peers/run.sh, on gridstore, as processes of its command line.

Each figure is the median wall time of a `gridstore` process less the median of
`gridstore --version` (start-up) measured in the same run. Standard library only.
Prints one JSON object like peers.py's, with the start-up time and the sync with nothing new.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = ["small", "middle", "big"]


def run(gridstore, arguments, stdin=None, output=None):
    """Runs gridstore; returns its wall time in milliseconds."""
    start = time.perf_counter()
    result = subprocess.run([gridstore] + arguments, input=stdin, stdout=output or subprocess.PIPE,
                            stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        sys.exit("gridstore %s failed: %s" % (" ".join(arguments), result.stderr.decode()))
    return elapsed, result.stdout


def document(sizes):
    items = ",".join('{"index":%d,"size":"%s"}' % (index, size) for index, size in enumerate(sizes))
    return ('{"grid":"default","type":"more","sections":[{"items":[%s]}]}' % items).encode()


def main():
    gridstore, items, offline, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(43)
    with tempfile.TemporaryDirectory() as folder:
        phone, tablet = os.path.join(folder, "phone.sqlite"), os.path.join(folder, "tablet.sqlite")
        run(gridstore, ["--db", phone, "import", "-", "-q"], stdin=document(["small"] * items))
        run(gridstore, ["--db", phone, "sync", tablet, "--create"])
        startup = statistics.median(run(gridstore, ["--version"])[0] for _ in range(21))
        apply_ms, export_ms, sync_ms, bytes_per_change, idle_ms = [], [], [], [], []
        for _ in range(rounds):
            cursor = run(gridstore, ["--db", tablet, "sync-cursor"])[1].decode().strip()
            run(gridstore, ["--db", phone, "import", "-", "-q"], stdin=document([rng.choice(SIZES) for _ in range(items)]))
            # The changes are recorded for sync at the first export; the second is the one timed.
            run(gridstore, ["--db", phone, "sync-export", "--since", cursor])
            elapsed, bundle = run(gridstore, ["--db", phone, "sync-export", "--since", cursor])
            export_ms.append(elapsed - startup)
            shown = json.loads(run(gridstore, ["sync-show", "-"], stdin=bundle)[1])
            changes = sum(len(item) for item in shown["items"].values())
            bytes_per_change.append(len(bundle) / max(1, changes))
            path = os.path.join(folder, "bundle.gsync")
            with open(path, "wb") as file:
                file.write(bundle)
            apply_ms.append(run(gridstore, ["--db", tablet, "sync-import", path, "-q"])[0] - startup)
            for database in (phone, tablet):
                for _ in range(offline):
                    run(gridstore, ["--db", database, "toggle", str(rng.randrange(items)), "-q"])
            sync_ms.append(run(gridstore, ["--db", phone, "sync", tablet])[0] - startup)
            idle_ms.append(run(gridstore, ["--db", phone, "sync", tablet])[0] - startup)
        print(json.dumps({"gridstore": {
            "apply": statistics.median(apply_ms), "sync": statistics.median(sync_ms), "export": statistics.median(export_ms),
            "bytesPerChange": statistics.median(bytes_per_change), "idleSync": statistics.median(idle_ms), "startup": startup,
        }}))


if __name__ == "__main__":
    main()
