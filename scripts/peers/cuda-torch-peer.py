#!/usr/bin/env python3
"""PyTorch peer for the CUDA backend's benchmark (CudaBench): the same shapes through torch, timed
with CUDA events, one JSON object per line. Usage: cuda-torch-peer.py [--out FILE]"""
import json
import sys

import torch
import torch.nn.functional as F

lines = []


def emit(obj):
    s = json.dumps(obj)
    lines.append(s)
    print(s, flush=True)


def timed(fn, warmup=3, reps=20):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def gemm():
    n = 8192
    for name, dtype, tf32 in [("bf16", torch.bfloat16, False), ("f16", torch.float16, False),
                              ("tf32", torch.float32, True), ("f32", torch.float32, False)]:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        x = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        w = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        ms = timed(lambda: torch.matmul(x, w.t()), reps=5 if name == "f32" else 20)
        emit({"bench": "gemm", "peer": "torch", "dtype": name, "m": n, "n": n, "k": n, "ms": round(ms, 4),
              "tflops": round(2 * n ** 3 / (ms * 1e-3) / 1e12, 1)})
        del x, w
    torch.backends.cuda.matmul.allow_tf32 = False


def ops():
    n = 256 << 20
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.rand(n, device="cuda") * 2 - 1
    z = torch.empty_like(x)
    ms = timed(lambda: z.copy_(x))
    emit({"bench": "ops", "peer": "torch", "op": "copy_d2d", "elements": n, "ms": round(ms, 4), "gbs": round(8 * n / (ms * 1e-3) / 1e9, 1)})
    cases = [("relu", 1, lambda: torch.relu(x)), ("silu", 1, lambda: F.silu(x)), ("gelu_erf", 1, lambda: F.gelu(x)),
             ("exp", 1, lambda: torch.exp(x, out=z)), ("scale", 1, lambda: torch.mul(x, 0.5, out=z)),
             ("add", 2, lambda: torch.add(x, y, out=z)), ("mul", 2, lambda: torch.mul(x, y, out=z))]
    for name, inputs, fn in cases:
        ms = timed(fn)
        emit({"bench": "ops", "peer": "torch", "op": name, "elements": n, "ms": round(ms, 4),
              "gbs": round(4 * n * (inputs + 1) / (ms * 1e-3) / 1e9, 1)})


def launch():
    ops_per_run, runs = 100, 2000
    x = torch.rand(1024, device="cuda")

    def chain():
        t = x
        for _ in range(ops_per_run):
            t = t * 1.0001
        return t

    import time
    for _ in range(50):
        chain()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(runs):
        chain()
    torch.cuda.synchronize()
    emit({"bench": "launch", "peer": "torch", "graphs": "off", "ops_per_run": ops_per_run, "runs": runs,
          "us_per_op": round((time.perf_counter() - t0) * 1e6 / runs / ops_per_run, 3)})
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            chain()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        chain()
    for _ in range(50):
        g.replay()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(runs):
        g.replay()
    torch.cuda.synchronize()
    emit({"bench": "launch", "peer": "torch", "graphs": "on", "ops_per_run": ops_per_run, "runs": runs,
          "us_per_op": round((time.perf_counter() - t0) * 1e6 / runs / ops_per_run, 3)})


def attention():
    b, h, t, d = 1, 8, 1500, 64
    for name, dtype in [("f32", torch.float32), ("f16", torch.float16)]:
        q, k, v = (torch.rand(b, h, t, d, device="cuda", dtype=dtype) * 2 - 1 for _ in range(3))
        ms = timed(lambda: F.scaled_dot_product_attention(q, k, v))
        emit({"bench": "attention", "peer": "torch", "kv": name, "b": b, "h": h, "t": t, "d": d, "ms": round(ms, 4),
              "tflops": round(4 * b * h * t * t * d / (ms * 1e-3) / 1e12, 2)})


def conv():
    torch.backends.cudnn.allow_tf32 = False  # F32 math, as the engine's conv (TF32 would fail its conformance bound)
    for name, xs, ws, fn, flops in [
            ("conv1d", (1, 512, 16000), (512, 512, 7), lambda x, w, b: F.conv1d(x, w, b, padding=3), 2 * 512 * 512 * 7 * 16000),
            ("conv_transpose1d", (1, 512, 2000), (512, 256, 16),
             lambda x, w, b: F.conv_transpose1d(x, w, b, stride=8, padding=4), 2 * 512 * 256 * 16 * 2000)]:
        x, w = torch.rand(xs, device="cuda") * 2 - 1, torch.rand(ws, device="cuda") * 2 - 1
        b = torch.rand(ws[1] if name == "conv_transpose1d" else ws[0], device="cuda")
        ms = timed(lambda: fn(x, w, b))
        emit({"bench": "conv", "peer": "torch", "op": name, "out": list(fn(x, w, b).shape), "ms": round(ms, 4),
              "tflops": round(flops / (ms * 1e-3) / 1e12, 2)})


if __name__ == "__main__":
    emit({"bench": "device", "peer": "torch", "torch": torch.__version__, "name": torch.cuda.get_device_name(0)})
    gemm()
    ops()
    launch()
    attention()
    conv()
    if "--out" in sys.argv:
        with open(sys.argv[sys.argv.index("--out") + 1], "w") as f:
            f.write("\n".join(lines) + "\n")
