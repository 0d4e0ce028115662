#!/usr/bin/env python3
"""Silero VAD speech probabilities through ONNX Runtime, the way silero-vad's audio_forward computes
them: 512-sample chunks at 16 kHz (256 at 8 kHz), the last zero-padded, each prefixed with the previous
window's last 64 (32) samples, LSTM state carried from zeros. Compares them with a probabilities file
(one per line, e.g. `audioengine --task vad --probabilities-out`) when given.
Usage: silero-vad-ort.py MODEL.onnx AUDIO.wav [ENGINE_PROBS.txt] [--tolerance 1e-4]"""
import sys
import wave

import numpy as np
import onnxruntime as ort

args = [a for a in sys.argv[1:] if not a.startswith("--")]
tol = float(sys.argv[sys.argv.index("--tolerance") + 1]) if "--tolerance" in sys.argv else 1e-4
if "--tolerance" in sys.argv:
    args.remove(sys.argv[sys.argv.index("--tolerance") + 1])
model, audio = args[0], args[1]
with wave.open(audio, "rb") as w:
    sr, ch, width, frames = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.readframes(w.getnframes())
assert width == 2 and sr in (8000, 16000), f"this script reads 16-bit PCM at 8/16 kHz, got {width * 8}-bit at {sr} Hz"
x = np.frombuffer(frames, dtype="<i2").astype(np.float32).reshape(-1, ch).mean(axis=1) / 32768.0
chunk, ctx = (512, 64) if sr == 16000 else (256, 32)
n = (len(x) + chunk - 1) // chunk
x = np.concatenate([x, np.zeros(n * chunk - len(x), np.float32)])
sess = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
names = [i.name for i in sess.get_inputs()]
state = np.zeros((2, 1, 128), np.float32)
context = np.zeros((1, ctx), np.float32)
probs = []
for i in range(n):
    window = np.concatenate([context, x[None, i * chunk:(i + 1) * chunk]], axis=1)
    feed = {names[0]: window, names[1]: state, names[2]: np.array(sr, dtype=np.int64)}
    out, state = sess.run(None, feed)
    context = window[:, -ctx:]
    probs.append(float(out[0, 0]))
print(f"ort {ort.__version__}: {n} chunks of {chunk} at {sr} Hz from {audio}")
if len(args) > 2:
    eng = np.loadtxt(args[2], dtype=np.float64).reshape(-1)
    ref = np.array(probs)
    if len(eng) != len(ref):
        print(f"FAIL: {len(eng)} engine probabilities, {len(ref)} from ONNX Runtime")
        sys.exit(1)
    diff = np.abs(eng - ref)
    worst = int(diff.argmax())
    print(f"max |engine - ort| = {diff.max():.3e} at chunk {worst} (engine {eng[worst]:.6f}, ort {ref[worst]:.6f}); "
          f"mean {diff.mean():.3e}; tolerance {tol:g}")
    print("PASS" if diff.max() <= tol else "FAIL")
    sys.exit(0 if diff.max() <= tol else 1)
else:
    print("\n".join(f"{p:.6f}" for p in probs))
