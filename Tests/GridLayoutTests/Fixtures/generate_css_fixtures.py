#!/usr/bin/env python3
"""Generates css-grid-cases.json: random packing cases with the positions a real browser gives.

Every case is laid out by Chromium with CSS Grid auto-placement through the team's oracle,
../shared/oracle/css_dense.py (beside the repository): `grid-auto-flow: row dense` for the
dense strategy, `grid-auto-flow: row` for the sparse one, and `column` flows for horizontal
grids, to which the spans are given transposed (a horizontal grid is the vertical packing
transposed). The tests compare gridstore's packer with these positions and need no browser.

Run from the repository's root, with chromium installed (apt-get install -y chromium):
    python3 Tests/GridLayoutTests/Fixtures/generate_css_fixtures.py
"""
import json
import math
import os
import random
import subprocess
import sys

ORACLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "oracle", "css_dense.py")
OUTPUT = os.path.join(os.path.dirname(__file__), "css-grid-cases.json")
SEED = 20261129
STANDARD_SPANS = {"small": [1, 1], "middle": [2, 2], "big": [4, 2]}
# Other spans the configuration allows, e.g. the original's "3, 1.5, 1 items per row".
CUSTOM_SPANS = [
    {"small": [1, 1], "middle": [2, 2], "big": [3, 2]},
    {"small": [1, 1], "middle": [3, 3], "big": [6, 3]},
    {"small": [1, 2], "middle": [2, 1], "big": [4, 4]},
]
MIXES = [
    ("equal", [1, 1, 1]),
    ("mostly small", [8, 1, 1]),
    ("mostly middle", [1, 8, 1]),
    ("mostly big", [1, 1, 8]),
    ("small and big", [1, 0, 1]),
    ("only small", [1, 0, 0]),
    ("only big", [0, 0, 1]),
    ("random", None),
]


def make_cases(rng):
    cases = []
    index = 0
    for columns in (4, 6, 8, 12):
        for direction in ("vertical", "horizontal"):
            for strategy in ("dense", "sparse"):
                for _ in range(18):
                    cases.append(make_case(rng, index, columns, direction, strategy, STANDARD_SPANS))
                    index += 1
    for _ in range(24):
        spans = rng.choice(CUSTOM_SPANS)
        widest = max(w for w, _ in spans.values())
        columns = rng.choice([c for c in (6, 8, 12) if c >= widest])
        cases.append(make_case(rng, index, columns, rng.choice(["vertical", "horizontal"]),
                               rng.choice(["dense", "sparse"]), spans))
        index += 1
    return cases


def make_case(rng, index, columns, direction, strategy, spans):
    # Log-uniform counts from 1 to 2,000, with both ends always present.
    if index % 40 == 0:
        count = 1
    elif index % 40 == 1:
        count = 2000
    else:
        count = int(round(math.exp(rng.uniform(0, math.log(2000)))))
    name, weights = rng.choice(MIXES)
    if weights is None:
        weights = [rng.random() for _ in range(3)]
    sizes = "".join(rng.choices("smb", weights=weights, k=count))
    return {"name": f"case {index}: {count} tiles, {name}, {columns} columns, {direction}, {strategy}",
            "columns": columns, "direction": direction, "strategy": strategy, "spans": spans, "sizes": sizes}


def ask_browser(cases):
    requests = []
    letters = {"s": "small", "m": "middle", "b": "big"}
    for case in cases:
        spans = [case["spans"][letters[letter]] for letter in case["sizes"]]
        if case["direction"] == "horizontal":
            spans = [[h, w] for w, h in spans]
        requests.append({"columns": case["columns"], "items": spans,
                         "flow": "row" if case["direction"] == "vertical" else "column",
                         "dense": case["strategy"] == "dense"})
    answer = subprocess.run([sys.executable, ORACLE], input=json.dumps({"cases": requests}),
                            capture_output=True, text=True, check=True)
    return json.loads(answer.stdout)["results"]


def main():
    rng = random.Random(SEED)
    cases = make_cases(rng)
    for start in range(0, len(cases), 40):
        batch = cases[start:start + 40]
        for case, positions in zip(batch, ask_browser(batch)):
            case["positions"] = [value for position in positions for value in position]
        print(f"{start + len(batch)} of {len(cases)} cases laid out", file=sys.stderr)
    with open(OUTPUT, "w") as file:
        json.dump({"generator": "Tests/GridLayoutTests/Fixtures/generate_css_fixtures.py",
                   "oracle": "shared/oracle/css_dense.py (Chromium, CSS Grid auto-placement)",
                   "seed": SEED, "cases": cases}, file, separators=(",", ":"))
        file.write("\n")


if __name__ == "__main__":
    main()
