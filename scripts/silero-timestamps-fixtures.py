#!/usr/bin/env python3
# Regenerates models/src/test/resources/silero/timestamps/*.txt: runs Silero's own
# get_speech_timestamps on the probabilities stored in each fixture (ONNX Runtime's, per chunk)
# for several option sets and rewrites the fixture's "case" lines with the segments it returns,
# and its VADIterator (the streaming helper) for the "stream" lines: the start/end events it
# yields chunk by chunk.
#
#   scripts/silero-timestamps-fixtures.py PATH/TO/utils_vad.py
#
# utils_vad.py is src/silero_vad/utils_vad.py of github.com/snakers4/silero-vad (MIT); it is not
# shipped here. torch is replaced by a small numpy stub: the function only slices, pads and
# calls the model, and the "model" replays the stored probabilities.
import glob, importlib.util, math, os, sys, types
import numpy as np

torch = types.ModuleType("torch")
torch.is_tensor = lambda x: isinstance(x, np.ndarray)
torch.Tensor = np.asarray
torch.device = lambda x: x
torch.no_grad = lambda: (lambda f: f)
nn = types.ModuleType("torch.nn")
functional = types.ModuleType("torch.nn.functional")
functional.pad = lambda x, p, *a, **k: np.pad(x, (p[0], p[1]))
nn.functional = functional
torch.nn = nn
sys.modules.update({"torch": torch, "torch.nn": nn, "torch.nn.functional": functional,
                    "torchaudio": types.ModuleType("torchaudio")})
spec = importlib.util.spec_from_file_location("utils_vad", sys.argv[1])
utils_vad = importlib.util.module_from_spec(spec)
spec.loader.exec_module(utils_vad)


class Chunk(np.ndarray):
    """A numpy array with torch's dim(), which VADIterator asks for."""

    def dim(self):
        return self.ndim


class Replay:
    def __init__(self, probs):
        self.probs, self.i = probs, 0

    def reset_states(self):
        self.i = 0

    def __call__(self, chunk, sr):
        self.i += 1
        return np.float32(self.probs[self.i - 1])


OPTIONS = [  # threshold, neg_threshold (None: default), min_speech_ms, min_silence_ms, speech_pad_ms, max_speech_s
    (0.5, None, 250, 100, 30, math.inf),
    (0.3, None, 100, 50, 10, math.inf),
    (0.6, 0.2, 500, 300, 100, math.inf),
    (0.5, None, 250, 100, 30, 1.0),
    (0.4, None, 250, 200, 50, 2.5),
    (0.5, 0.45, 0, 0, 0, 0.5),
]
STREAM_OPTIONS = [(0.5, 100, 30), (0.3, 50, 0), (0.7, 300, 100)]  # threshold, min_silence_ms, speech_pad_ms
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "src", "test", "resources", "silero", "timestamps")
for path in sorted(glob.glob(os.path.join(root, "*.txt"))):
    kept = [l for l in open(path).read().strip().split("\n") if not l.startswith(("case", "stream"))]
    fields = dict(l.split(" ", 1) for l in kept)
    rate, samples = int(fields["rate"]), int(fields["samples"])
    probs = [float(x) for x in fields["probs"].split()]
    for t, neg, min_speech, min_silence, pad, max_speech in OPTIONS:
        segs = utils_vad.get_speech_timestamps(np.zeros(samples, dtype=np.float32), Replay(probs), threshold=t,
                                               sampling_rate=rate, min_speech_duration_ms=min_speech,
                                               max_speech_duration_s=max_speech, min_silence_duration_ms=min_silence,
                                               speech_pad_ms=pad, neg_threshold=neg)
        bounds = " ".join(f"{s['start']} {s['end']}" for s in segs)
        kept.append(f"case {t} {'nan' if neg is None else neg} {min_speech} {min_silence} {pad} "
                    f"{'inf' if math.isinf(max_speech) else max_speech} : {bounds}")
    window = int(fields["window"])
    for t, min_silence, pad in STREAM_OPTIONS:
        it = utils_vad.VADIterator(Replay(probs), threshold=t, sampling_rate=rate, min_silence_duration_ms=min_silence, speech_pad_ms=pad)
        events = []
        for _ in probs:
            e = it(np.zeros(window, dtype=np.float32).view(Chunk))
            if e:
                events.extend(["S", str(e["start"])] if "start" in e else ["E", str(e["end"])])
        kept.append(f"stream {t} {min_silence} {pad} : {' '.join(events)}")
    with open(path, "w") as f:
        f.write("\n".join(kept) + "\n")
