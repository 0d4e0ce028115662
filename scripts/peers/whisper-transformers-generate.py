"""The batch-1 peer for the engine's Whisper on a GPU (issue 30): transformers' WhisperForConditionalGeneration on a
transformers-layout folder (e.g. the seeded random weights scripts/gpu/whisper-transformers-reference.py --random
saves), greedy, forced to exactly TOKENS new tokens after the four-token prompt (start, English, transcribe, no
timestamps) so that it decodes as many tokens as the engine did; the log-mel features (WhisperFeatureExtractor, the
audio padded to 30 s) are computed inside the timed region, as the engine computes its own. GenerationMixin.generate
is called directly: Whisper's own generate() wants a released model's generation config, which random weights lack.
fp32 (TF32 off) and fp16, sdpa attention; one warm-up, median of ROUNDS. One JSON line per dtype.

    python3 scripts/peers/whisper-transformers-generate.py FOLDER WAV TOKENS ROUNDS
"""
import json
import statistics
import sys
import time
import wave

import numpy as np
import torch
from transformers import GenerationMixin, WhisperFeatureExtractor, WhisperForConditionalGeneration


def read_wav(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2 and w.getnchannels() == 1, path
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return pcm.astype(np.float32) / 32768.0


def main(folder, wav, tokens, rounds):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    audio = read_wav(wav)
    for dtype in (torch.float32, torch.float16):
        model = WhisperForConditionalGeneration.from_pretrained(folder, attn_implementation="sdpa")
        model = model.to(device="cuda", dtype=dtype).eval()
        cfg = model.config
        fe = WhisperFeatureExtractor(feature_size=cfg.num_mel_bins)
        shift = cfg.vocab_size - 51865
        prompt = torch.tensor([[50258, 50259, 50359 + shift, 50363 + shift]], device="cuda")

        def once():
            feats = fe(audio, sampling_rate=16000, return_tensors="pt").input_features.to("cuda", dtype)
            with torch.no_grad():
                out = GenerationMixin.generate(model, input_features=feats, decoder_input_ids=prompt,
                                               max_new_tokens=tokens, min_new_tokens=tokens, do_sample=False,
                                               num_beams=1)
            torch.cuda.synchronize()
            return out.shape[1] - prompt.shape[1]

        once()
        times, made = [], 0
        for _ in range(rounds):
            t0 = time.perf_counter()
            made = once()
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        print(json.dumps(dict(peer="transformers", folder=folder, dtype=str(dtype).replace("torch.", ""),
                              attn="sdpa", batch=1, audio_s=round(len(audio) / 16000, 2), new_tokens=made,
                              median_s=round(med, 4), ms_per_token=round(1000 * med / max(made, 1), 2),
                              rounds=[round(t, 4) for t in times])), flush=True)
        del model
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
