"""The batched peer for the engine's server throughput (scripts/gpu/batching-evidence.sh): transformers'
MoonshineForConditionalGeneration.generate() over the same pairs of Debian recordings asr-load.py sent, in batches of
8, 16, 32 and 64, fp32 and bf16, sdpa attention, greedy, seeded random weights of the given config (speed does not
depend on their values). Each batch is forced to the engine's own token count for its longest member
(min_new_tokens = max_new_tokens = the largest count in the batch, read from pairs.json): what generate() costs when
its longest sequence decodes that many tokens, as with real weights. Audio is padded to the batch's longest with an
attention mask. Prints one JSON line per configuration: audio seconds per second over all pairs, median of ROUNDS.
BATCHES (default 8,16,32,64) and DTYPES (default float32,bfloat16) narrow the sweep, for the alternating rounds of
scripts/gpu/batching-alternating.sh; LABEL is copied into each line.

    python3 scripts/peers/moonshine-transformers-batched.py PAIRS_DIR SIZE ROUNDS
"""
import glob
import json
import os
import statistics
import sys
import time
import wave

import numpy as np
import torch
from transformers import MoonshineConfig, MoonshineForConditionalGeneration

SIZES = {
    "tiny": dict(hidden_size=288, intermediate_size=1152, encoder_num_hidden_layers=6, decoder_num_hidden_layers=6,
                 encoder_num_attention_heads=8, decoder_num_attention_heads=8, partial_rotary_factor=0.9),
    "base": dict(hidden_size=416, intermediate_size=1664, encoder_num_hidden_layers=8, decoder_num_hidden_layers=8,
                 encoder_num_attention_heads=8, decoder_num_attention_heads=8, partial_rotary_factor=0.62),
}


def main(pairs_dir, size, rounds):
    meta = json.load(open(os.path.join(pairs_dir, "pairs.json")))
    audios = []
    for f in sorted(glob.glob(os.path.join(pairs_dir, "pair*.wav"))):
        with wave.open(f) as w:
            audios.append(np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0)
    tokens = meta["tokens"]
    total_audio = sum(len(a) for a in audios) / 16000
    torch.manual_seed(7)
    cfg = MoonshineConfig(vocab_size=32768, **SIZES[size], decoder_start_token_id=1, bos_token_id=1, eos_token_id=2,
                          pad_token_id=0)
    base = MoonshineForConditionalGeneration(cfg).eval()
    batch_sizes = [int(b) for b in os.environ.get("BATCHES", "8,16,32,64").split(",")]
    dtypes = [getattr(torch, d) for d in os.environ.get("DTYPES", "float32,bfloat16").split(",")]
    label = os.environ.get("LABEL")
    for dtype in dtypes:
        m = base.to("cuda", dtype).eval() if dtype == torch.float32 else base.to("cuda", dtype)
        m.config._attn_implementation = "sdpa"
        for b in batch_sizes:
            batches = []
            for i in range(0, len(audios), b):
                chunk = audios[i:i + b]
                n = max(len(a) for a in chunk)
                x = np.zeros((len(chunk), n), np.float32)
                mask = np.zeros((len(chunk), n), np.int64)
                for j, a in enumerate(chunk):
                    x[j, :len(a)] = a
                    mask[j, :len(a)] = 1
                batches.append((torch.from_numpy(x).to("cuda", dtype), torch.from_numpy(mask).to("cuda"),
                                max(tokens[i:i + b])))

            def run():
                with torch.no_grad():
                    for x, mask, k in batches:
                        m.generate(input_values=x, attention_mask=mask, min_new_tokens=k, max_new_tokens=k,
                                   do_sample=False, num_beams=1)

            run()
            times = []
            for _ in range(rounds):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                run()
                torch.cuda.synchronize()
                times.append(time.perf_counter() - t0)
            t = statistics.median(times)
            print(json.dumps({**({"label": label} if label else {}), "peer": "transformers", "size": size, "dtype": str(dtype).replace("torch.", ""),
                              "attn": "sdpa", "batch": b, "clips": len(audios), "audio_s": round(total_audio, 1),
                              "wall_s": round(t, 3), "audio_s_per_s": round(total_audio / t, 1)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
