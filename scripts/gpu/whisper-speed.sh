#!/bin/bash
# Whisper's speed on the GPU machine (issue 30), after scripts/gpu/whisper-package, carrying .gpu-whisper and .gl:
# seeded random weights at the released tiny and large-v3-turbo geometries made there
# (scripts/gpu/whisper-transformers-reference.py --random), the README's 7.1 s example clip; the engine warm
# (`bench asr --backend cuda`, one warm-up, median of 5; VAD, log-mel, encoder and greedy decoding) and
# transformers' generate() at batch 1 forced to the engine's token count (scripts/peers/whisper-transformers-generate.py).
# $OUT gets one JSON line per run in whisper-speed.jsonl. SIZES overrides the geometries.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /tmp/audioengine/bin/audioengine ] || tar xJf .gpu-whisper/audioengine-image.tar.xz -C /tmp
export AUDIOENGINE_CACHE=/tmp/ae-cache; mkdir -p $AUDIOENGINE_CACHE; cp .gpu-whisper/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
AE=/tmp/audioengine/bin/audioengine; WAV=docs/examples/dashwood.wav
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for size in ${SIZES:-tiny large-v3-turbo}; do
  python3 scripts/gpu/whisper-transformers-reference.py --random $size 1 /tmp/w $WAV .gpu-whisper/hf/tokenizer.json > /dev/null 2>&1 \
    || { echo "$size: the random model could not be made"; continue; }
  $AE --backend cuda --fallback fail bench asr --json --model /tmp/w/hf-$size --audio $WAV --runs 5 > /tmp/bench-$size.json 2> /tmp/bench-$size.err \
    || { echo "$size: engine failed: $(tail -3 /tmp/bench-$size.err)"; continue; }
  cat /tmp/bench-$size.json | tee -a $OUT/whisper-speed.jsonl; echo
  tokens=$(python3 -c "import json,sys; d=json.load(open('/tmp/bench-$size.json')); print(d.get('tokens') or d.get('tokens_per_round') or 0)")
  python3 scripts/peers/whisper-transformers-generate.py /tmp/w/hf-$size $WAV ${tokens:-32} 5 2>&1 | grep '^{' | tee -a $OUT/whisper-speed.jsonl
done
