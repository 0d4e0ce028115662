"""The speed peer for Moonshine on the GPU: transformers' MoonshineForConditionalGeneration.generate() with the
moonshine-tiny and moonshine-base configs and seeded random weights (speed does not depend on their values), fp32 and
bf16, eager and sdpa attention, greedy, exactly TOKENS new tokens (min_new_tokens = max_new_tokens, so EOS drawn at
random does not end it early), on one recording. Also saves each random model with save_pretrained so the engine
runs the very same weights (MoonshineProbe speed), and measures the device's copy bandwidth for the per-token bound.

    python3 scripts/peers/moonshine-transformers-speed.py OUT_DIR WAV TOKENS ROUNDS
Writes OUT_DIR/hf-tiny and OUT_DIR/hf-base (config.json, model.safetensors) and prints one line per run.
"""
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


def read_wav(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2 and w.getnchannels() == 1, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


def cuda_time(fn, rounds):
    times = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(out, wav, tokens, rounds):
    audio = torch.from_numpy(read_wav(wav)).unsqueeze(0)
    x = torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    copy_ms = cuda_time(lambda: y.copy_(x), 20)
    print(f"device copy bandwidth: {2 * x.numel() / copy_ms / 1e6:.0f} GB/s (read + write of 256 MiB in {copy_ms:.3f} ms)")
    for size, kw in SIZES.items():
        torch.manual_seed(7)
        cfg = MoonshineConfig(vocab_size=32768, **kw, decoder_start_token_id=1, bos_token_id=1, eos_token_id=2, pad_token_id=0)
        model = MoonshineForConditionalGeneration(cfg).eval()
        d = os.path.join(out, "hf-" + size)
        model.save_pretrained(d, safe_serialization=True)
        for dtype in (torch.float32, torch.bfloat16):
            for attn in ("eager", "sdpa"):
                m = MoonshineForConditionalGeneration.from_pretrained(d, dtype=dtype, attn_implementation=attn).to("cuda").eval()
                inp = audio.to("cuda", dtype)
                def run():
                    with torch.no_grad():
                        return m.generate(input_values=inp, max_new_tokens=tokens, min_new_tokens=tokens, do_sample=False, num_beams=1)
                for _ in range(3):
                    got = run()
                ms = cuda_time(run, rounds)
                print(f"transformers {size} {str(dtype).replace('torch.', '')} {attn}: {audio.shape[1] / 16000:.1f} s audio, "
                      f"generate() {ms:.2f} ms for {got.shape[1] - 1} tokens ({ms / tokens:.3f} ms/token incl. encoder)")
                del m
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
