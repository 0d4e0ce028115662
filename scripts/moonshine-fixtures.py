"""Architecture fixtures for the Moonshine family: transformers' MoonshineForConditionalGeneration
with seeded random weights, saved in the original checkpoints' layout (save_pretrained:
model.safetensors + config.json), and its reference outputs computed in float64 on the CPU.

Run where transformers is installed (the GPU machine has 5.x):
    python3 scripts/moonshine-fixtures.py OUT_DIR
Writes OUT_DIR/<name>/{config.json, model.safetensors, reference.safetensors} for each config
below. The configs keep every structural trait of moonshine-tiny (head 36 of 8 heads, partial
rotary 0.9) and moonshine-base (head 52, partial rotary 0.62) at sizes small enough to commit. reference.safetensors holds:
    audio             [1, N]     the input (seeded chirp + noise)
    encoder_states    [1, T, D]  last_hidden_state of the encoder
    prefix            [1, P]     a fixed decoder token prefix (int32)
    logits            [1, P, V]  the decoder's logits for that prefix
    greedy            [1, G]     generate() greedy tokens from BOS (int32), no length rule
"""
import json
import os
import sys

import torch
from safetensors.torch import save_file
from transformers import MoonshineConfig, MoonshineForConditionalGeneration

CONFIGS = {
    # moonshine-tiny's head (36 wide, rotary 0.9 -> 32 dims), 2 heads instead of 8, fewer layers
    "tiny-layout": dict(hidden_size=72, intermediate_size=64, encoder_num_hidden_layers=2, decoder_num_hidden_layers=2,
                        encoder_num_attention_heads=2, decoder_num_attention_heads=2, partial_rotary_factor=0.9, vocab_size=384,
                        initializer_range=0.15),
    # moonshine-base's head (52 wide, rotary 0.62 -> 32 dims), 2 heads instead of 8, 3 decoder layers
    "base-layout": dict(hidden_size=104, intermediate_size=80, encoder_num_hidden_layers=2, decoder_num_hidden_layers=3,
                        encoder_num_attention_heads=2, decoder_num_attention_heads=2, partial_rotary_factor=0.62, vocab_size=320,
                        initializer_range=0.15),
}


def audio(n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float64)
    return (0.3 * torch.sin(t * 0.03 * (1 + t / 9000.0)) + 0.05 * torch.randn(n, generator=g, dtype=torch.float64)).unsqueeze(0)


def main(out):
    torch.manual_seed(0)
    for i, (name, kw) in enumerate(CONFIGS.items()):
        cfg = MoonshineConfig(**kw, decoder_start_token_id=1, bos_token_id=1, eos_token_id=2, pad_token_id=0)
        torch.manual_seed(1000 + i)
        model = MoonshineForConditionalGeneration(cfg).eval()
        with torch.no_grad():  # default init leaves norms at 1 and biases at 0: perturb them so a missing one shows
            for n_, p in model.named_parameters():
                if p.dim() == 1:
                    p.add_(0.1 * torch.randn_like(p))
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        model.save_pretrained(d, safe_serialization=True)
        m64 = model.double()
        x = audio(16000 + 911 * i, 77 + i)
        prefix = torch.tensor([[1, 17, 5, 200, 33, 9]], dtype=torch.long)
        with torch.no_grad():
            enc = m64.model.encoder(input_values=x).last_hidden_state
            logits = m64(input_values=x, decoder_input_ids=prefix).logits
            greedy = m64.generate(input_values=x, max_new_tokens=12, do_sample=False, num_beams=1)
        # token ids as int32: the engine's safetensors reader has no int64
        save_file({"audio": x.float().contiguous(), "encoder_states": enc.float().contiguous(), "prefix": prefix.int(),
                   "logits": logits.float().contiguous(), "greedy": greedy.int().contiguous()}, os.path.join(d, "reference.safetensors"))
        print(name, "encoder", tuple(enc.shape), "logits", tuple(logits.shape), "greedy", greedy.tolist(),
              "bytes", os.path.getsize(os.path.join(d, "model.safetensors")))
        with open(os.path.join(d, "config.json")) as f:
            print(json.dumps(json.load(f), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
