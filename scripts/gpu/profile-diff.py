"""The per-kernel profile of a load alone: the last `CUDA device 0 profile:` table of two serve logs (cuda.profile=on),
the second minus the first, largest first. Run the same server twice, once with ROUNDS=0 (the single-stream pass
only) and once with the load, e.g. in one device call:
    ROUNDS=0 RUNS="prof0:new:--option,cuda.profile=on" bash scripts/gpu/batching-ab.sh
    ROUNDS=3 RUNS="prof3:new:--option,cuda.profile=on" bash scripts/gpu/batching-ab.sh
    python3 scripts/gpu/profile-diff.py $OUT/serve-prof0.log $OUT/serve-prof3.log
Each kernel is timed apart with a synchronization either side (graphs off), so a small kernel reads about 9-10 us of
launch and wait on an H100; the large ones are what the table is for.
"""
import re
import sys


def profile(path):
    table = open(path).read().split("CUDA device 0 profile:")[-1]
    rows = {}
    for line in table.splitlines()[2:]:
        f = line.split()
        if len(f) >= 6 and re.match(r"^[0-9.]+$", f[0]):
            rows[f[4] + " " + f[5]] = (float(f[0]), int(f[2]))
    return rows


def main(before, after, top=30):
    a, b = profile(before), profile(after)
    rows = sorted(((b[k][0] - a.get(k, (0, 0))[0], b[k][1] - a.get(k, (0, 0))[1], k) for k in b), reverse=True)
    print(f"load only: {sum(r[0] for r in rows):.1f} ms")
    for ms, n, k in rows[:top]:
        print(f"{ms:9.1f} ms {n:7d} calls {1000 * ms / max(n, 1):8.1f} us/call  {k}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
