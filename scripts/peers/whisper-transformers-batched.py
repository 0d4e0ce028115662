"""The batched peer for the engine server's Whisper throughput (scripts/gpu/whisper-batching.sh, issue 30):
transformers' WhisperForConditionalGeneration.generate() over the very clips scripts/gpu/asr-load.py sent the server
(PAIRS_DIR/pair*.wav, each at most 30 s: one window), in batches (BATCHES, default 32,64), fp32 with TF32 off and fp16
(DTYPES, default float32,float16), sdpa attention, greedy, on the transformers folder whose ggml F16 conversion the
server decodes (the muted seeded random weights of scripts/gpu/whisper-speed.sh --prepare: /tmp/w/hf-SIZE).

Each batch is forced to the engine's own token count for its longest member (min_new_tokens = max_new_tokens = the
largest count in the batch, from PAIRS_DIR/pairs.json, which asr-load.py writes from the server's verbose_json
segments): with the muted weights 220 a window, the engine's and whisper.cpp's per-window limit, so both sides run
220 decoder steps a window. The log-mel features (WhisperFeatureExtractor, each clip padded to 30 s, on the GPU where
this transformers' extractor takes a device) are computed inside the timed region, as the server computes its own.
GenerationMixin.generate is called directly, as scripts/peers/whisper-transformers-generate.py does: Whisper's own
generate() wants a released model's generation config, which random weights lack.

What is matched and what is not:
  - matched: the weights (the same folder; the server's ggml file is its F16 rounding), the audio, one window per
    clip, greedy decoding, language en and task transcribe given (no language detection on either side), the number
    of decoder steps a window, a batch of up to 64 windows a step (the server's --max-batch 64), features in the
    timed region.
  - timestamps (TIMESTAMPS, a comma list, default none):
      none   the prompt <|startoftranscript|><|en|><|transcribe|><|notimestamps|> and no timestamp rules: what
             transformers' Whisper generate() does by default for audio of at most 30 s (return_timestamps=False),
             and the batch-1 peer's prompt; the cheapest way for transformers to decode these 220 tokens.
      rules  the timestamp prompt (no <|notimestamps|>, as the engine's long-form decoding, which has timestamps on
             by default) and transformers' WhisperTimeStampLogitsProcessor each step (what generate(...,
             return_timestamps=True) adds: pairs, monotonic times, the initial timestamp at most 1 s, and the summed
             timestamp probability against the likeliest text token). The engine applies whisper.cpp's form of the
             same rules on its host each step. transformers' processor loops over the batch in Python each step, so at
             batch 64 it costs transformers far more than the rules cost the engine; it also forces the first token to
             be a timestamp where whisper.cpp's rules (and the engine's) do not, so its 220 tokens are one timestamp
             and 219 text where the engine's are 220 text (the muted weights never pick a timestamp otherwise).
    whisper-batching.sh runs none in the alternating rounds (the figure the ratio is taken against: transformers at
    its fastest) and rules once after them, for reference.
  - not matched: the engine's server also receives and parses the upload, decodes the WAV, runs Whisper's long-form
    checks (log-probability, entropy, no-speech) and answers JSON over HTTP for each request; the peer is handed
    float arrays and times generate() alone. The server batches requests as they arrive (up to --max-batch a step);
    the peer's batches are full and fixed. The peer's first-token and EOT handling follow transformers' defaults
    (begin_suppress_tokens from the folder's generation config; EOT unpickable anyway with the muted weights).

One untimed warm-up per configuration, then the median of ROUNDS passes over all clips. Prints one JSON line per
configuration: audio seconds per wall second (x real time), windows/s and tokens/s (new tokens generated, all rows),
in the style of scripts/peers/moonshine-transformers-batched.py; LABEL is copied into each line (the alternating
rounds' summary, scripts/gpu/batching_alternating_summary.py, pairs peer-rN with engine-rN). DEVICE (default cuda)
lets the script's data path be tried on a CPU.

    python3 scripts/peers/whisper-transformers-batched.py FOLDER PAIRS_DIR ROUNDS
"""
import glob
import json
import os
import statistics
import sys
import time
import types
import wave

import numpy as np
import torch
from transformers import GenerationMixin, LogitsProcessorList, WhisperFeatureExtractor, WhisperForConditionalGeneration

SOT, EN, TRANSCRIBE, NO_TIMESTAMPS, EOT = 50258, 50259, 50359, 50363, 50257


def read_wav(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2 and w.getnchannels() == 1, path
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return pcm.astype(np.float32) / 32768.0


def timestamp_rules(shift, begin_index):
    """transformers' WhisperTimeStampLogitsProcessor with a released multilingual model's settings (the random
    folder's generation config has none of them): notimestamps id, EOT, the initial timestamp at most index 50 (1 s,
    whisper.cpp's max_initial_ts and openai-whisper's default)."""
    from transformers import WhisperTimeStampLogitsProcessor
    cfg = types.SimpleNamespace(no_timestamps_token_id=NO_TIMESTAMPS + shift, eos_token_id=EOT, bos_token_id=EOT,
                                max_initial_timestamp_index=50, forced_decoder_ids=None,
                                _detect_timestamp_from_logprob=True, is_multilingual=True)
    p = WhisperTimeStampLogitsProcessor(cfg, begin_index=begin_index)
    p.begin_index = begin_index  # some versions derive it from forced_decoder_ids whatever is passed
    return p


def features(fe, chunk, device, dtype):
    try:  # the STFT on the GPU where this transformers' extractor takes a device (4.38 on)
        f = fe(chunk, sampling_rate=16000, return_tensors="pt", device=device).input_features
    except TypeError:
        f = fe(chunk, sampling_rate=16000, return_tensors="pt").input_features
    return f.to(device, dtype)


def main(folder, pairs_dir, rounds):
    device = os.environ.get("DEVICE", "cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    meta = json.load(open(os.path.join(pairs_dir, "pairs.json")))
    files = sorted(glob.glob(os.path.join(pairs_dir, "pair*.wav")))
    audios = [read_wav(f) for f in files]
    tokens = meta["tokens"]
    if len(tokens) != len(audios) or min(tokens) < 1:
        sys.exit(f"{pairs_dir}: {len(audios)} clips and token counts {tokens[:8]}...: the engine's counts are missing "
                 "or 0 (did the server answer verbose_json segments with tokens?)")
    if max(len(a) for a in audios) > 30 * 16000:
        sys.exit(f"{pairs_dir}: a clip is longer than 30 s: this peer decodes one window a clip")
    total_audio = sum(len(a) for a in audios) / 16000
    batch_sizes = [int(b) for b in os.environ.get("BATCHES", "32,64").split(",")]
    dtypes = [getattr(torch, d) for d in os.environ.get("DTYPES", "float32,float16").split(",")]
    modes = os.environ.get("TIMESTAMPS", "none").split(",")
    label = os.environ.get("LABEL")
    size = os.path.basename(os.path.normpath(folder)).removeprefix("hf-")
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    for dtype in dtypes:
        model = WhisperForConditionalGeneration.from_pretrained(folder, attn_implementation="sdpa")
        model = model.to(device=device, dtype=dtype).eval()
        cfg = model.config
        fe = WhisperFeatureExtractor(feature_size=cfg.num_mel_bins)
        shift = cfg.vocab_size - 51865  # large-v3's vocabulary has one language more
        for mode in modes:
            if mode not in ("none", "rules"):
                sys.exit(f"TIMESTAMPS: none or rules, not {mode}")
            prompt = [SOT, EN, TRANSCRIBE + shift] + ([NO_TIMESTAMPS + shift] if mode == "none" else [])
            extra = ({"logits_processor": LogitsProcessorList([timestamp_rules(shift, len(prompt))])}
                     if mode == "rules" else {})
            for b in batch_sizes:
                batches = [(audios[i:i + b], max(tokens[i:i + b])) for i in range(0, len(audios), b)]

                def run():
                    made = 0
                    with torch.no_grad():
                        for chunk, k in batches:
                            feats = features(fe, chunk, device, dtype)
                            ids = torch.tensor([prompt], device=device).repeat(len(chunk), 1)
                            out = GenerationMixin.generate(model, input_features=feats, decoder_input_ids=ids,
                                                           decoder_start_token_id=SOT, min_new_tokens=k,
                                                           max_new_tokens=k, do_sample=False, num_beams=1, **extra)
                            made += (out.shape[1] - len(prompt)) * out.shape[0]
                    sync()
                    return made

                run()
                times, made = [], 0
                for _ in range(rounds):
                    sync()
                    t0 = time.perf_counter()
                    made = run()
                    times.append(time.perf_counter() - t0)
                t = statistics.median(times)
                print(json.dumps({**({"label": label} if label else {}), "peer": "transformers", "model": "whisper",
                                  "size": size, "dtype": str(dtype).replace("torch.", ""), "attn": "sdpa",
                                  "timestamps": mode, "batch": b, "clips": len(audios), "audio_s": round(total_audio, 1),
                                  "new_tokens": made, "forced_tokens": sum(k * len(c) for c, k in batches),
                                  "wall_s": round(t, 3), "audio_s_per_s": round(total_audio / t, 1),
                                  "windows_per_s": round(len(audios) / t, 1), "tokens_per_s": round(made / t),
                                  "rounds": [round(x, 3) for x in times]}), flush=True)
        del model
        if device.startswith("cuda"):
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
