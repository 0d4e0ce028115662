#!/usr/bin/env python3
"""ONNX Runtime (Python) on the same Kokoro inputs the engine's probe synthesized, for the GPU evidence's CPU peer:
   python3 scripts/kokoro-ort-speed.py MODEL.onnx IDS.json ROUNDS [THREADS]
IDS.json is what KokoroProbe writes when KOKORO_PROBE_IDS is set: per sentence its phoneme ids (pads included) and
its style row. Speed 1. One warm-up round, then the median of ROUNDS of all sentences one at a time, with THREADS
intra-op threads (default: every core). Prints seconds, audio seconds and x real time."""
import json, os, statistics, sys, time

import numpy as np
import onnxruntime as ort

model, ids_path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
threads = int(sys.argv[4]) if len(sys.argv) > 4 else os.cpu_count()
opts = ort.SessionOptions()
opts.intra_op_num_threads = threads
session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
inputs = json.load(open(ids_path))
feeds = [{"input_ids": np.array([s["ids"]], dtype=np.int64), "style": np.array([s["style"]], dtype=np.float32),
          "speed": np.array([1.0], dtype=np.float32)} for s in inputs]


def one_round():
    t0, samples = time.perf_counter(), 0
    for f in feeds:
        samples += session.run(None, f)[0].size
    return time.perf_counter() - t0, samples


one_round()
times, samples = [], 0
for _ in range(rounds):
    t, samples = one_round()
    times.append(t)
audio = samples / 24000
med = statistics.median(times)
print(f"[onnxruntime {ort.__version__}, CPU, {threads} threads] speed: {len(feeds)} sentences, {audio:.2f} s of audio in "
      f"{med:.3f} s (median of {rounds}, min {min(times):.3f}): {audio / med:.1f} x real time")
