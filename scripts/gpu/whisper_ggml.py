"""Whisper weights for a speed comparison with whisper.cpp on the GPU machine, with numpy alone (no torch, no Java):

    python3 scripts/gpu/whisper_ggml.py mute FOLDER
        rewrites FOLDER/model.safetensors (a transformers-layout Whisper: WhisperFixtureWriter's hf/, or what
        whisper-transformers-reference.py --random saves) so that no decoder ever picks a special token (below)

    python3 scripts/gpu/whisper_ggml.py random FOLDER TOKENIZER_JSON SEED D HEADS ENCODER_LAYERS DECODER_LAYERS [MELS]
        writes seeded random weights initialised as transformers initialises a Whisper (normal 0.02 weights and
        embeddings, zero biases, unit norms, sinusoidal encoder positions) into FOLDER, for trying all this on a CPU
        without torch (whisper-transformers-reference.py --random makes the released geometries with torch itself)

    python3 scripts/gpu/whisper_ggml.py convert FOLDER OUT.bin
        writes whisper.cpp's model file (F16: ftype 1) from FOLDER (config.json, model.safetensors, tokenizer.json)

Muting. Random weights stop after a few tokens (an EOT, a timestamp that seeks, a no-speech guess), so a speed
comparison would time the encoder alone. Here every token from EOT on (EOT, SOT, the languages, the tasks, no-speech,
no-timestamps, the timestamps) gets a logit far below every text token's, whatever the decoder's state: the final
decoder layer norm's channel 0 is made a constant 1 (weight 0, bias 1), and the (tied) embedding rows of those tokens
get -K in that channel, K = 20 + 12 sigma where sigma = |h| |row| / sqrt(d) bounds the spread of a logit h . row
over the other channels (|h| <= sqrt(d) max|weight| + |bias| after a layer norm). Special logits then sit K below
the text ones, so even the 1501 timestamps' summed probability (whisper.cpp's and the engine's timestamp rule) stays
below the likeliest text token's; K stays small enough that their probabilities do not underflow float32 (both
decoders take each step's likeliest timestamp for segment times). Meant for transformers-initialised weights (normal
0.02, unit norms: K about 25-35); WhisperFixtureWriter's far larger weights are refused. Each decoder
(the engine, whisper.cpp, transformers) then decodes text until its own per-window limit: whisper.cpp and the engine
stop at n_text_ctx/2 - 4 = 220 tokens and mark the window failed (no timestamp: "stuck"), which with the temperature
fallback off (-nf, --no-fallback) keeps all 220 tokens and ends the 30 s window. Text tokens' rows change only in
channel 0's effect (a constant shift of each logit by its row's channel-0 value), the same for every decoder.

Conversion: the layout whisper.cpp's whisper_model_load reads (and the engine's GgmlWhisperReader): magic 'ggml',
eleven int32 hyperparameters, the Slaney mel filters [n_mels][201] (computed here as openai-whisper's and the
engine's LogMel.slaney), the text tokens' bytes (tokenizer.json's model.vocab by id, GPT-2's byte-to-character
mapping undone), then each tensor: n_dims, name length, type (0 F32, 1 F16), dims innermost first, name, data. Matmul
weights, the token table and the conv kernels are F16, biases, norms and positions F32, with OpenAI's names.
"""
import json
import math
import os
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": None, "F64": np.float64}


def read_safetensors(path, writable=False):
    """name -> numpy array (F32/F16 as stored, BF16 widened to F32), in the file's order; a memory map unless written."""
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    base = 8 + n
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    out = {}
    for name, info in sorted(((k, v) for k, v in header.items() if k != "__metadata__"),
                             key=lambda kv: kv[1]["data_offsets"][0]):
        a, b = info["data_offsets"]
        buf = raw[base + a:base + b]
        if info["dtype"] == "BF16":
            arr = (buf.view("<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            arr = buf.view(np.dtype(DTYPES[info["dtype"]]).newbyteorder("<"))
        arr = arr.reshape(info["shape"])
        out[name] = np.array(arr) if writable else arr
    return out


def write_safetensors(path, tensors):
    header, at = {}, 0
    for name, arr in tensors.items():
        dt = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16"}[arr.dtype]
        header[name] = {"dtype": dt, "shape": list(arr.shape), "data_offsets": [at, at + arr.nbytes]}
        at += arr.nbytes
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for arr in tensors.values():
            f.write(np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes())
    os.replace(tmp, path)


def eot_id(vocab_size):
    # multilingual vocabularies (51865, large-v3's 51866) put EOT after GPT-2's 50257 text tokens; English-only at 50256
    return 50257 if vocab_size >= 51865 else 50256


def mute_specials(table, ln_weight, ln_bias):
    """In place: tokens from EOT on can never win (the module's doc). table [V, d], the final decoder norm's [d]."""
    d = table.shape[1]
    eot = eot_id(table.shape[0])
    ln_weight[0] = 0.0
    ln_bias[0] = 1.0
    h_norm = math.sqrt(d) * float(np.abs(ln_weight).max()) + float(np.linalg.norm(ln_bias[1:]))
    row_norm = float(np.sqrt((table[:, 1:].astype(np.float64) ** 2).sum(axis=1)).max())
    sigma = h_norm * row_norm / math.sqrt(d)  # a logit's spread for random directions, from above
    # 12 spreads plus 20 below any text logit, and no further: the timestamps' probabilities must stay above float32's
    # smallest (whisper.cpp and the engine take the likeliest timestamp of each step, and all zeros would give none)
    k = float(math.ceil(20 + 12 * sigma))  # an integer: exact in F16 too
    if k > 60:
        raise SystemExit(f"mute: logits spread too wide for muting (sigma {sigma:.1f}): the specials' probabilities"
                         " would underflow; this is meant for transformers-initialised random weights")
    table[eot:, 0] = -k
    return k


def mute(folder):
    path = os.path.join(folder, "model.safetensors")
    t = read_safetensors(path, writable=True)
    k = mute_specials(t["model.decoder.embed_tokens.weight"], t["model.decoder.layer_norm.weight"],
                      t["model.decoder.layer_norm.bias"])
    write_safetensors(path, t)
    print(json.dumps(dict(muted=folder, from_token=eot_id(t["model.decoder.embed_tokens.weight"].shape[0]),
                          channel=0, logit_offset=-k)))


def random_folder(folder, tokenizer, seed, d, heads, enc, dec, mels=80, vocab_size=51865):
    rng = np.random.default_rng(seed)
    t = {}

    def normal(*shape):
        return (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(np.float32)

    def norm(p):
        t[p + ".weight"] = np.ones(d, np.float32)
        t[p + ".bias"] = np.zeros(d, np.float32)

    def layer(p, cross):
        for a in ["self_attn"] + (["encoder_attn"] if cross else []):
            for proj in ("q_proj", "k_proj", "v_proj", "out_proj"):
                t[f"{p}.{a}.{proj}.weight"] = normal(d, d)
                if proj != "k_proj":
                    t[f"{p}.{a}.{proj}.bias"] = np.zeros(d, np.float32)
            norm(f"{p}.{a}_layer_norm")
        t[p + ".fc1.weight"], t[p + ".fc1.bias"] = normal(4 * d, d), np.zeros(4 * d, np.float32)
        t[p + ".fc2.weight"], t[p + ".fc2.bias"] = normal(d, 4 * d), np.zeros(d, np.float32)
        norm(p + ".final_layer_norm")

    t["model.encoder.conv1.weight"], t["model.encoder.conv1.bias"] = normal(d, mels, 3), np.zeros(d, np.float32)
    t["model.encoder.conv2.weight"], t["model.encoder.conv2.bias"] = normal(d, d, 3), np.zeros(d, np.float32)
    half = d // 2
    inv = np.exp(-math.log(10000) / (half - 1) * np.arange(half))
    ang = np.arange(1500)[:, None] * inv[None, :]
    t["model.encoder.embed_positions.weight"] = np.concatenate([np.sin(ang), np.cos(ang)], 1).astype(np.float32)
    for i in range(enc):
        layer(f"model.encoder.layers.{i}", False)
    norm("model.encoder.layer_norm")
    t["model.decoder.embed_tokens.weight"] = normal(vocab_size, d)
    t["model.decoder.embed_positions.weight"] = normal(448, d)
    for i in range(dec):
        layer(f"model.decoder.layers.{i}", True)
    norm("model.decoder.layer_norm")
    os.makedirs(folder, exist_ok=True)
    write_safetensors(os.path.join(folder, "model.safetensors"), t)
    cfg = dict(model_type="whisper", vocab_size=vocab_size, num_mel_bins=mels, d_model=d, encoder_layers=enc,
               encoder_attention_heads=heads, decoder_layers=dec, decoder_attention_heads=heads,
               encoder_ffn_dim=4 * d, decoder_ffn_dim=4 * d, max_source_positions=1500, max_target_positions=448)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f)
    with open(tokenizer, "rb") as src, open(os.path.join(folder, "tokenizer.json"), "wb") as dst:
        dst.write(src.read())
    print(json.dumps(dict(random=folder, seed=seed, d=d, heads=heads, encoder_layers=enc, decoder_layers=dec)))


def openai_name(hf):
    """OpenAI's (whisper.cpp's) name for a transformers one; None for tensors whisper.cpp has no use for."""
    s = hf[len("model."):] if hf.startswith("model.") else hf
    if s.startswith("proj_out"):
        return None  # tied to the token table
    for a, b in (("encoder.embed_positions.weight", "encoder.positional_embedding"),
                 ("decoder.embed_positions.weight", "decoder.positional_embedding"),
                 ("decoder.embed_tokens", "decoder.token_embedding"),
                 ("encoder.layer_norm.", "encoder.ln_post."), ("decoder.layer_norm.", "decoder.ln."),
                 (".layers.", ".blocks."), (".encoder_attn_layer_norm.", ".cross_attn_ln."),
                 (".encoder_attn.", ".cross_attn."), (".self_attn_layer_norm.", ".attn_ln."),
                 (".self_attn.", ".attn."), (".final_layer_norm.", ".mlp_ln."), (".fc1.", ".mlp.0."),
                 (".fc2.", ".mlp.2."), (".q_proj.", ".query."), (".k_proj.", ".key."), (".v_proj.", ".value."),
                 (".out_proj.", ".out.")):
        s = s.replace(a, b)
    return s


def order(cfg):
    """The tensors in whisper.cpp's converter's (and the engine's GgmlWriter's) order."""
    names = ["encoder.positional_embedding", "encoder.conv1.weight", "encoder.conv1.bias", "encoder.conv2.weight",
             "encoder.conv2.bias"]

    def block(p, cross):
        out = []
        for a in ["attn"] + (["cross_attn"] if cross else []):
            out += [f"{p}.{a}.query.weight", f"{p}.{a}.query.bias", f"{p}.{a}.key.weight", f"{p}.{a}.value.weight",
                    f"{p}.{a}.value.bias", f"{p}.{a}.out.weight", f"{p}.{a}.out.bias", f"{p}.{a}_ln.weight",
                    f"{p}.{a}_ln.bias"]
        return out + [f"{p}.mlp.0.weight", f"{p}.mlp.0.bias", f"{p}.mlp.2.weight", f"{p}.mlp.2.bias",
                      f"{p}.mlp_ln.weight", f"{p}.mlp_ln.bias"]

    for i in range(cfg["encoder_layers"]):
        names += block(f"encoder.blocks.{i}", False)
    names += ["encoder.ln_post.weight", "encoder.ln_post.bias", "decoder.positional_embedding",
              "decoder.token_embedding.weight"]
    for i in range(cfg["decoder_layers"]):
        names += block(f"decoder.blocks.{i}", True)
    return names + ["decoder.ln.weight", "decoder.ln.bias"]


def slaney_filters(sample_rate, n_fft, mels):
    """[mels, n_fft/2 + 1] float32: Slaney-scale triangles, area-normalised (librosa's default, openai-whisper's)."""
    def hz_to_mel(hz):
        return hz * 3 / 200 if hz < 1000 else 15 + math.log(hz / 1000) / (math.log(6.4) / 27)

    def mel_to_hz(m):
        return m * 200 / 3 if m < 15 else 1000 * math.exp((m - 15) * math.log(6.4) / 27)

    bins = n_fft // 2 + 1
    lo, hi = hz_to_mel(0), hz_to_mel(sample_rate / 2.0)
    edges = [mel_to_hz(lo + (hi - lo) * i / (mels + 1)) for i in range(mels + 2)]
    w = np.zeros((mels, bins), dtype=np.float64)
    for m in range(mels):
        norm = 2 / (edges[m + 2] - edges[m])
        for k in range(bins):
            f = k * sample_rate / n_fft
            rise = (f - edges[m]) / (edges[m + 1] - edges[m])
            fall = (edges[m + 2] - f) / (edges[m + 2] - edges[m + 1])
            w[m, k] = max(0.0, min(rise, fall)) * norm
    return w.astype(np.float32)


def byte_decoder():
    """GPT-2's bytes_to_unicode, inverted: the character that stands for each byte in a byte-level BPE vocabulary."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def convert(folder, out_path):
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    t = read_safetensors(os.path.join(folder, "model.safetensors"))
    named = {}
    for hf, arr in t.items():
        n = openai_name(hf)
        if n is not None:
            named[n] = arr
    d, mels = cfg["d_model"], cfg["num_mel_bins"]
    for conv in ("encoder.conv1.bias", "encoder.conv2.bias"):
        named[conv] = named[conv].reshape(-1, 1)  # whisper.cpp's [1, d] (innermost first)
    names = order(cfg)
    missing = [n for n in names if n not in named]
    if missing:
        raise SystemExit(f"convert: {folder} lacks {len(missing)} tensors whisper.cpp needs, e.g. {missing[:3]}")
    dec = byte_decoder()
    tokens = sorted(vocab.items(), key=lambda kv: kv[1])
    hp = [cfg["vocab_size"], cfg["max_source_positions"], d, cfg["encoder_attention_heads"], cfg["encoder_layers"],
          cfg["max_target_positions"], d, cfg["decoder_attention_heads"], cfg["decoder_layers"], mels, 1]
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<i", 0x67676D6C))
        f.write(struct.pack("<11i", *hp))
        f.write(struct.pack("<ii", mels, 201))
        f.write(slaney_filters(16000, 400, mels).astype("<f4").tobytes())
        f.write(struct.pack("<i", len(tokens)))
        for s, _ in tokens:
            b = bytes(dec[c] for c in s)
            f.write(struct.pack("<i", len(b)))
            f.write(b)
        for n in names:
            arr = named[n]
            # whisper.cpp's F16 file: 2-D and 3-D weights in F16 but the positions (and biases, norms) in F32
            half = arr.ndim >= 2 and n not in ("encoder.positional_embedding", "decoder.positional_embedding") \
                and not n.endswith(".bias")
            nb = n.encode()
            f.write(struct.pack("<iii", arr.ndim, len(nb), 1 if half else 0))
            f.write(struct.pack(f"<{arr.ndim}i", *reversed(arr.shape)))
            f.write(nb)
            step = max(1, (1 << 26) // max(1, int(np.prod(arr.shape[1:], dtype=np.int64))))
            for i in range(0, arr.shape[0], step):  # in slices: a large-v3-turbo table is 260 MB in F32
                part = np.asarray(arr[i:i + step], dtype=np.float32)
                f.write(part.astype("<f2" if half else "<f4").tobytes())
    os.replace(tmp, out_path)
    print(json.dumps(dict(converted=folder, ggml=out_path, bytes=os.path.getsize(out_path), tensors=len(names),
                          vocab=len(tokens))))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "mute":
        mute(sys.argv[2])
    elif len(sys.argv) in (9, 10) and sys.argv[1] == "random":
        random_folder(sys.argv[2], sys.argv[3], *map(int, sys.argv[4:]))
    elif len(sys.argv) == 4 and sys.argv[1] == "convert":
        convert(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
