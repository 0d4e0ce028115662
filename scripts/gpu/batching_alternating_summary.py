"""Medians of scripts/gpu/batching-alternating.sh's rounds: the engine's 64-client throughput per round, the peer's
best configuration per round (the highest audio s/s of its batch sizes and dtypes in that round), each round's ratio,
and the ratio of the medians. Also whether every engine round was free of cross-talk and errors and decoded the same
tokens.

    python3 scripts/gpu/batching_alternating_summary.py ENGINE_JSONL PEER_JSONL
"""
import json
import statistics
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.startswith("{")]


def main(engine_path, peer_path):
    engine = lines(engine_path)
    peer = lines(peer_path)
    best = {}
    for p in peer:
        r = p["label"]
        if r not in best or p["audio_s_per_s"] > best[r]["audio_s_per_s"]:
            best[r] = p
    rows = []
    for e in engine:
        r = e["label"].replace("engine-", "peer-")
        p = best.get(r)
        rows.append((e, p))
        print(f"{e['label']}: engine {e['audio_s_per_s']} audio s/s (single stream {e['single_stream_median_ms']} ms, "
              f"cross-talk {e['cross_talk']}, errors {e['errors']}, tokens {e['tokens_per_pass']})"
              + (f"; peer {p['audio_s_per_s']} ({p['dtype']}, batch {p['batch']}); ratio "
                 f"{e['audio_s_per_s'] / p['audio_s_per_s']:.2f}x" if p else "; no peer figure"))
    es = [e["audio_s_per_s"] for e, _ in rows]
    ps = [p["audio_s_per_s"] for _, p in rows if p]
    if es and ps:
        print(f"medians over {len(es)} engine and {len(ps)} peer rounds: engine {statistics.median(es)}, peer "
              f"{statistics.median(ps)}, ratio {statistics.median(es) / statistics.median(ps):.2f}x; per-round ratios "
              f"{min(e['audio_s_per_s'] / p['audio_s_per_s'] for e, p in rows if p):.2f}-"
              f"{max(e['audio_s_per_s'] / p['audio_s_per_s'] for e, p in rows if p):.2f}x")
    clean = all(e["cross_talk"] == 0 and e["errors"] == 0 for e in engine)
    same = len({e["tokens_per_pass"] for e in engine}) <= 1
    print(f"every engine round without cross-talk or errors: {clean}; the same tokens every round: {same}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
