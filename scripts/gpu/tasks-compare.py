"""Compares scripts/gpu/tasks-parity.sh's outputs of CUDA and Vulkan with the CPU's: wake-word scores per frame (max
|difference|, bound 1e-4) and detections (keyword and frame, exact); note events (pitch exact, times and amplitudes
within 1e-3, velocity within 1). Prints one line per task, input and backend, and exits 1 when any differs.

    python3 scripts/gpu/tasks-compare.py OUT_DIR
"""
import csv
import json
import os
import sys


def scores(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in r] for r in rows[1:]]


def events(doc):
    for key in ("notes", "events"):
        if isinstance(doc, dict) and key in doc:
            return doc[key]
    raise KeyError("no notes in " + str(doc)[:200])


def main(out):
    bad = 0
    for b in ("cuda", "vulkan"):
        for a in ("jarvis", "alexa", "speech"):
            try:
                head, ref = scores(os.path.join(out, f"kws-cpu-{a}.csv"))
                head2, got = scores(os.path.join(out, f"kws-{b}-{a}.csv"))
                d = max((abs(x - y) for r, g in zip(ref, got) for x, y in zip(r, g)), default=0.0)
                same_shape = head == head2 and len(ref) == len(got)
                det = [(x["keyword"], x["frame"]) for x in json.load(open(os.path.join(out, f"kws-cpu-{a}.json")))["detections"]]
                det2 = [(x["keyword"], x["frame"]) for x in json.load(open(os.path.join(out, f"kws-{b}-{a}.json")))["detections"]]
                ok = same_shape and d <= 1e-4 and det == det2
                print(f"kws {a} {b}: {len(got)} frames, max|diff| {d:.2e}, detections {det2} {'PASS' if ok else 'FAIL (cpu ' + str(det) + ')'}")
            except Exception as e:  # noqa: BLE001 - a missing or broken output is a failure to report
                ok = False
                print(f"kws {a} {b}: FAIL ({e!r})")
            bad += not ok
        for a in ("melody", "chord", "speech"):
            try:
                ref = events(json.load(open(os.path.join(out, f"notes-cpu-{a}.json"))))
                got = events(json.load(open(os.path.join(out, f"notes-{b}-{a}.json"))))
                worst, ok = 0.0, len(ref) == len(got)
                for r, g in zip(ref, got):
                    for k, v in r.items():
                        if k == "velocity":  # floor(amplitude * 127): one step either way at an amplitude's rounding
                            ok = ok and abs(v - g[k]) <= 1
                        elif isinstance(v, (int, float)) and not isinstance(v, bool) and "pitch" not in k:
                            worst = max(worst, abs(v - g[k]))
                        elif v != g.get(k):
                            ok = False
                ok = ok and worst <= 1e-3
                print(f"notes {a} {b}: {len(got)} notes (cpu {len(ref)}), max|diff| of times and amplitudes {worst:.2e} {'PASS' if ok else 'FAIL'}")
            except Exception as e:  # noqa: BLE001
                ok = False
                print(f"notes {a} {b}: FAIL ({e!r})")
            bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1])
