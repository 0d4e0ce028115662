"""The transformers reference for the engine's Whisper: WhisperForConditionalGeneration with the very weights the
engine runs, its encoder states and teacher-forced decoder logits dumped for models' WhisperTransformersReferenceTest.

Two ways to get the same weights on both sides:

    python3 scripts/gpu/whisper-transformers-reference.py FOLDER WAV
        FOLDER is a transformers-layout Whisper the engine wrote (WhisperFixtureWriter's hf/: config.json,
        model.safetensors, tokenizer.json); the reference files are written into FOLDER.

    python3 scripts/gpu/whisper-transformers-reference.py --random SIZE SEED OUT_DIR WAV TOKENIZER_JSON [--mute]
        SIZE is tiny, base, small or large-v3-turbo (the released geometries); seeded random weights are made here,
        saved with save_pretrained into OUT_DIR/hf-SIZE (with TOKENIZER_JSON copied beside, e.g. WhisperFixtureWriter's
        hf/tokenizer.json, so the engine can load the folder), and the reference files written there. --mute first
        makes every token from EOT on unpickable (scripts/gpu/whisper_ggml.py's mute_specials: the final decoder norm's
        channel 0 constant, those rows' channel 0 far negative), so that every decoder runs to its per-window limit
        (the GPU speed comparison, scripts/gpu/whisper-speed.sh).

Reference files, beside the model: reference-encoder.f32 (encoder last_hidden_state [1, 1500, d], little-endian
float32), reference-logits.f32 (logits [T, V] for the decoder input ids), reference.json (device, dtype, the decoder
input ids, the shapes, torch and transformers versions, and the log-mel input's max |difference| to nothing: the
features are WhisperFeatureExtractor's on WAV padded to 30 s). Run on the GPU machine (fp32, eager attention, TF32
off so that the comparison is float32 against float32); the engine side then runs
    mvn -pl models -am verify -Dtest=WhisperTransformersReferenceTest -Dwhisper.transformers.reference=FOLDER
"""
import json
import os
import shutil
import sys
import wave

import numpy as np
import torch
from transformers import WhisperConfig, WhisperFeatureExtractor, WhisperForConditionalGeneration

SIZES = {
    "tiny": dict(d_model=384, encoder_layers=4, decoder_layers=4, encoder_attention_heads=6,
                 decoder_attention_heads=6, num_mel_bins=80, vocab_size=51865),
    "base": dict(d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                 decoder_attention_heads=8, num_mel_bins=80, vocab_size=51865),
    "small": dict(d_model=768, encoder_layers=12, decoder_layers=12, encoder_attention_heads=12,
                  decoder_attention_heads=12, num_mel_bins=80, vocab_size=51865),
    "large-v3-turbo": dict(d_model=1280, encoder_layers=32, decoder_layers=4, encoder_attention_heads=20,
                           decoder_attention_heads=20, num_mel_bins=128, vocab_size=51866),
}


def read_wav(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2 and w.getnchannels() == 1, path
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return pcm.astype(np.float32) / 32768.0


def prompt_ids(vocab_size):
    # SOT, <|en|>, <|transcribe|>, <|notimestamps|> for the multilingual vocabularies, then a few text tokens
    shift = vocab_size - 51865  # large-v3 has one more language
    sot = 50258
    return [sot, sot + 1, 50359 + shift, 50363 + shift, 1000, 2000, 3000, 40000, 220]


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = "cuda" if torch.cuda.is_available() else "cpu"
    args = sys.argv[1:]
    if args and args[0] == "--random":
        size, seed, out, wav, tokenizer = args[1], int(args[2]), args[3], args[4], args[5]
        torch.manual_seed(seed)
        cfg = WhisperConfig(**SIZES[size], encoder_ffn_dim=4 * SIZES[size]["d_model"],
                            decoder_ffn_dim=4 * SIZES[size]["d_model"], max_source_positions=1500,
                            max_target_positions=448)
        model = WhisperForConditionalGeneration(cfg)
        if "--mute" in args[6:]:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from whisper_ggml import mute_specials
            dec = model.model.decoder
            with torch.no_grad():  # numpy views of the CPU tensors: changed in place (proj_out is tied to the table)
                k = mute_specials(dec.embed_tokens.weight.data.numpy(), dec.layer_norm.weight.data.numpy(),
                                  dec.layer_norm.bias.data.numpy())
            print(json.dumps(dict(muted=size, logit_offset=-k)), file=sys.stderr)
        folder = os.path.join(out, "hf-" + size)
        model.save_pretrained(folder, safe_serialization=True)
        shutil.copy(tokenizer, os.path.join(folder, "tokenizer.json"))
    else:
        folder, wav = args[0], args[1]
        cfg = WhisperConfig.from_pretrained(folder)
        model = WhisperForConditionalGeneration.from_pretrained(folder)
    model = model.to(device=device, dtype=torch.float32).eval()
    model.config._attn_implementation = "eager"

    audio = read_wav(wav)
    fe = WhisperFeatureExtractor(feature_size=cfg.num_mel_bins)
    feats = fe(audio, sampling_rate=16000, return_tensors="pt").input_features.to(device)
    ids = prompt_ids(cfg.vocab_size)
    with torch.no_grad():
        enc = model.model.encoder(feats).last_hidden_state
        out = model(encoder_outputs=(enc,), decoder_input_ids=torch.tensor([ids], device=device))
    enc_np = enc.float().cpu().numpy().astype("<f4")
    logits = out.logits[0].float().cpu().numpy().astype("<f4")
    enc_np.tofile(os.path.join(folder, "reference-encoder.f32"))
    logits.tofile(os.path.join(folder, "reference-logits.f32"))
    import transformers
    meta = dict(device=torch.cuda.get_device_name(0) if device == "cuda" else "cpu", dtype="float32",
                decoder_input_ids=ids, encoder_shape=list(enc_np.shape), logits_shape=list(logits.shape),
                torch=torch.__version__, transformers=transformers.__version__, wav=os.path.abspath(wav))
    with open(os.path.join(folder, "reference.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
