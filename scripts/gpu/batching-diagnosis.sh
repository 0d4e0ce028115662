#!/bin/bash
# Why the batched server's batch does not fill on a GPU (docs/PERFORMANCE.md, issue 28): from the repository root after
# scripts/gpu/batching-package, through the device tool carrying .gpu and .gl; $OUT collects the raw output.
#   1. Silero VAD's cost per 32 ms chunk on CUDA and on one CPU thread (bench vad), streaming and offline;
#   2. the CUDA server at 64 clients, 3 requests each, --max-batch 64, on pairs of distinct recordings (window lengths
#      vary, so encoder graphs are compiled per length and only 8 are kept) against pairs of one recording (one
#      length: every encoder graph cached), alternating; /metrics' batch occupancy after each.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xJf .gpu/audioengine-image.tar.xz -C /tmp
export AUDIOENGINE_CACHE=/tmp/ae-cache; mkdir -p $AUDIOENGINE_CACHE
xz -dc .gpu/tiny/encoder_model.onnx.xz > $AUDIOENGINE_CACHE/moonshine-tiny-quantized-encoder_model.onnx
xz -dc .gpu/tiny/decoder_model_merged.onnx.xz > $AUDIOENGINE_CACHE/moonshine-tiny-quantized-decoder_model_merged.onnx
cp .gpu/llama-tokenizer.js .gpu/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
AE=/tmp/audioengine/bin/audioengine
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/device.txt
timeout 120 $AE bench vad --backend cuda --json | tee $OUT/bench-vad-cuda.json
timeout 120 $AE bench vad --backend cpu --threads 1 --json | tee $OUT/bench-vad-cpu.json
mkdir -p /tmp/same; one=$(ls .gpu/audio/0*.wav | head -1); for i in 01 02 03 04 05 06 07 08 09 10; do cp $one /tmp/same/0$i.wav; done
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('http://localhost:8090'+sys.argv[1], timeout=5).read().decode())" "$1"; }
serve() {  # label, dir, backend options...
  local label=$1 dir=$2; shift 2
  $AE serve --port 8090 --models moonshine-tiny --preload --queue 256 "$@" > $OUT/serve-$label.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; sleep 1; done
  timeout 200 python3 scripts/gpu/asr-load.py http://localhost:8090 $dir 64 3 /tmp/pairs-$label $label | tee -a $OUT/engine.jsonl
  get /metrics | grep -E '^audioengine_batch_(steps|sequence|occ)' | tee $OUT/metrics-$label.txt
  kill $pid; wait $pid 2>/dev/null
}
serve distinct-batch64 .gpu/audio --backend cuda
serve same-batch64 /tmp/same --backend cuda
serve distinct-batch64-again .gpu/audio --backend cuda
serve same-batch64-again /tmp/same --backend cuda
