#!/bin/bash
# Whisper's speed on the GPU machine (issue 30): the engine, transformers and whisper.cpp's CUDA build on the same
# seeded random weights, decoding the same 220 tokens, at the released tiny and large-v3-turbo geometries.
#
# Here (no device time): scripts/gpu/whisper-speed-package   (the image, whisper-cli's CUDA build, tokenizer, VAD
# into .gpu-wspeed/; it prints the exact run lines below with the package's size). Then, through the device tool,
# ONE call when the package is under ~45 MB:
#     run: bash scripts/gpu/whisper-speed.sh                      carry: .gpu-wspeed .gl
# or, when whisper-speed-package had to split it (it says so: whisper-cli's CUDA build alone is 41.5 MB xz'd, so in
# practice always), two calls on the same warm machine (/tmp persists between them):
#     run: bash scripts/gpu/whisper-speed.sh --prepare            carry: .gpu-wspeed-image    (image, tokenizer, VAD)
#     run: bash scripts/gpu/whisper-speed.sh                      carry: .gpu-wspeed .gl      (whisper-cli)
# The first unpacks the image and makes both sizes' muted models and ggml files in /tmp/w (about 2 minutes); the
# second finds them there (else makes them itself) and measures.
#
# Per size (SIZES overrides "tiny large-v3-turbo"), each stage timed on stdout ("[T s] ..."), each failing one saying
# why while the rest go on:
#   1. random weights made here with transformers' own initialisation, seed 1 (whisper-transformers-reference.py
#      --random SIZE 1 ... --mute): every token from EOT on made unpickable (scripts/gpu/whisper_ggml.py's doc), so
#      all three decoders decode text until their per-window limit: 220 tokens (whisper.cpp's n_text_ctx/2 - 4, the
#      engine's the same; transformers forced to the engine's count with min_new_tokens = max_new_tokens)
#   2. that folder converted to whisper.cpp's ggml F16 file (whisper_ggml.py convert; numpy)
#   3. the engine warm: `bench asr --backend cuda --fallback fail --language en --no-fallback`, one warm-up round,
#      median of 5, on the transformers folder (F32) as is, with `--option cuda.tf32=on`, and on the ggml F16 file
#   4. transformers generate() at batch 1, fp32 (TF32 off) and fp16, sdpa, one warm-up, median of 5
#      (scripts/peers/whisper-transformers-generate.py)
#   5. whisper-cli's CUDA build (scripts/peers/whisper-cpp-cuda-build: sm_90, ggml's defaults) on the ggml file,
#      greedy and no fallback as the engine (-l en -bs 1 -bo 1 -nf -t 4), flash attention on (its default) and off
#      (-nfa): one process transcribing the file once, one transcribing it 6 times (one load); its printed timings of
#      both, and the warm per-file time from their difference (scripts/gpu/whisper_speed_lines.py's doc)
# Run in the order 3 (ggml F16), 4, 5 (flash attention on), then AHEAD_ROUNDS (3) alternating pairs of 3 on the ggml
# F16 file with Whisper's step ahead off and on, then 3 (F32, TF32), 5 (off), with HALF_MATVEC=1 3 (ggml F16 with
# cuda.half_matvec_rows=16, no faster on an H100): past BUDGET_S (540 s) a stage is skipped, so a slow machine loses
# the extras first.
# Everything goes to $OUT/whisper-speed.jsonl (one JSON object per measurement, each with "size" and "side"), the
# raw logs beside it.
set -u
T0=$(date +%s)
stage() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
late() { [ $(( $(date +%s) - T0 )) -gt ${BUDGET_S:-540} ] && { echo "[$(( $(date +%s) - T0 )) s] skipped, past ${BUDGET_S:-540} s: $*"; return 0; }; return 1; }
PKG=.gpu-wspeed
PREP=; case "${1:-}" in --prepare|--unpack-only) PREP=1;; esac  # the first of two calls: unpack and make the models
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# the image, tokenizer.json and the VAD come in .gpu-wspeed/ or, split off, in .gpu-wspeed-image/; kept in /tmp
# (the image unpacked, the rest in /tmp/wspeed-assets) for a second call on the same warm machine
A=/tmp/wspeed-assets; mkdir -p $A
for d in $PKG .gpu-wspeed-image; do
  for f in tokenizer.json silero_vad_v6.onnx; do [ -f $d/$f ] && cp $d/$f $A/; done
done
if [ ! -x /tmp/audioengine/bin/audioengine ]; then
  img=$(ls $PKG/audioengine-image.tar.xz .gpu-wspeed-image/audioengine-image.tar.xz 2>/dev/null | head -1)
  [ -n "$img" ] || { echo "no jlinked image: carry .gpu-wspeed (or .gpu-wspeed-image), made by scripts/gpu/whisper-speed-package"; exit 1; }
  tar xJf "$img" -C /tmp || { echo "could not unpack $img"; exit 1; }
fi
stage "engine image in /tmp/audioengine; $(ls $A | tr '\n' ' ')"

for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done; ldconfig
[ -f $A/tokenizer.json ] && [ -f $A/silero_vad_v6.onnx ] || { echo "no tokenizer.json or VAD: carry .gpu-wspeed-image (scripts/gpu/whisper-speed-package)"; exit 1; }
export AUDIOENGINE_CACHE=/tmp/ae-cache; mkdir -p $AUDIOENGINE_CACHE; cp $A/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
AE=/tmp/audioengine/bin/audioengine; WAV=docs/examples/dashwood.wav; W=/tmp/w; mkdir -p $W
CLI=/tmp/whisper-cli-cuda
if [ -n "$PREP" ]; then
  CLI=
elif xz -dc $PKG/whisper-cli-cuda.xz > $CLI 2>/dev/null && chmod +x $CLI; then
  # libcudart.so.13 and libcublas.so.13 from the CUDA toolkit, else from PyTorch's CUDA wheels (nvidia/*/lib)
  for lib in $(ldd $CLI | awk '/not found/ {print $1}'); do
    dir=$(find /usr/local/cuda*/ $(python3 -c "import site; print(*site.getsitepackages())") -name "$lib" 2>/dev/null | head -1)
    [ -n "$dir" ] && export LD_LIBRARY_PATH=$(dirname "$dir"):$LD_LIBRARY_PATH
  done
  missing=$(ldd $CLI | grep "not found")
  [ -z "$missing" ] || { echo "whisper-cli cannot run here, libraries missing: $missing"; CLI=; }
  ldd $CLI | grep -E "cublas|cudart|libcuda" | tee $OUT/whisper-cli-libs.txt
else
  echo "no whisper-cli in $PKG: whisper.cpp is left out"; CLI=
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/device.txt
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)" | tee -a $OUT/device.txt
J=$OUT/whisper-speed.jsonl
tag() { python3 scripts/gpu/whisper_speed_lines.py tag "$@" | tee -a $J; }

engine() { # variant: f32 (the transformers folder), tf32 (the same, cuda.tf32=on), ggml-f16 (whisper.cpp's file),
           # ggml-f16-mv (the same with cuda.half_matvec_rows=16: the half mat-vec kernel for the decoder's products),
           # ggml-f16-plain (the same with the greedy loop's step ahead off: -Daudioengine.whisper.step-ahead=off);
           # $2, when given, is the round of an alternating pair (in the file names and the tags)
  local variant=$1 round=${2:-} model=$W/hf-$size opt=() jopts=${AUDIOENGINE_JAVA_OPTS:-} name
  name=$size-$variant${round:+-r$round}
  late "$size engine $variant" && return
  stage "$size: engine CUDA, $variant${round:+, round $round}"
  [ $variant = tf32 ] && opt=(--option cuda.tf32=on)
  [ $variant = ggml-f16-mv ] && opt=(--option cuda.half_matvec_rows=16)
  [ $variant = ggml-f16-plain ] && jopts="$jopts -Daudioengine.whisper.step-ahead=off"
  case $variant in ggml-f16*) model=$W/ggml-$size-f16.bin ;; esac
  [ -e "$model" ] || { echo "$size: no $model"; return; }
  if AUDIOENGINE_JAVA_OPTS="$jopts" $AE --backend cuda --fallback fail ${opt[@]+"${opt[@]}"} bench asr --json \
      --model $model --audio $WAV --runs 5 --language en --no-fallback > $OUT/engine-$name.json 2> $OUT/engine-$name.err; then
    tag size=$size side=engine variant=$variant ${round:+round=$round} < $OUT/engine-$name.json
    tokens=$(python3 -c "import json; print(json.load(open('$OUT/engine-$name.json'))['tokens'])")
  else
    echo "$size: engine ($variant) failed: $(tail -3 $OUT/engine-$name.err)"
  fi
}
transformers() {
  late "$size transformers" && return
  stage "$size: transformers fp32 and fp16, $tokens new tokens"
  python3 scripts/peers/whisper-transformers-generate.py $W/hf-$size $WAV $tokens 5 > $OUT/transformers-$size.log 2>&1 \
      || echo "$size: transformers failed: $(tail -3 $OUT/transformers-$size.log)"
  tag size=$size side=transformers < $OUT/transformers-$size.log
}
cpp() { # fa: flash attention on (whisper-cli's default), nfa: off
  local fa=$1 flags
  [ -n "$CLI" ] && [ -f $W/ggml-$size-f16.bin ] || return
  late "$size whisper.cpp $fa" && return
  stage "$size: whisper.cpp CUDA ($fa): 1 file, then 6 files in one process"
  flags=(-m $W/ggml-$size-f16.bin -l en -bs 1 -bo 1 -nf -t 4); [ $fa = nfa ] && flags+=(-nfa)
  $CLI "${flags[@]}" -f $WAV -ojf -of $OUT/cpp-$size-$fa > $OUT/cpp-$size-$fa-1.out 2> $OUT/cpp-$size-$fa-1.log \
      || { echo "$size: whisper-cli failed: $(tail -3 $OUT/cpp-$size-$fa-1.log)"; return; }
  $CLI "${flags[@]}" -f $WAV -f $WAV -f $WAV -f $WAV -f $WAV -f $WAV > $OUT/cpp-$size-$fa-6.out 2> $OUT/cpp-$size-$fa-6.log \
      || { echo "$size: whisper-cli (6 files) failed: $(tail -3 $OUT/cpp-$size-$fa-6.log)"; return; }
  python3 scripts/gpu/whisper_speed_lines.py cpp $OUT/cpp-$size-$fa-1.log $OUT/cpp-$size-$fa-6.log 6 \
      $OUT/cpp-$size-$fa.json size=$size side=whisper.cpp variant=$fa | tee -a $J
}

make_models() { # the muted random folder and its ggml file of $size, unless an earlier call on this machine made them
  if [ -f $W/hf-$size/muted-seed-1 ] && [ -f $W/ggml-$size-f16.bin ]; then stage "$size: models made by an earlier call"; return 0; fi
  stage "$size: random weights (transformers' initialisation, seed 1), specials muted"
  rm -rf $W/hf-$size $W/ggml-$size-f16.bin
  python3 scripts/gpu/whisper-transformers-reference.py --random $size 1 $W $WAV $A/tokenizer.json --mute \
      > $OUT/make-$size.log 2>&1 || { echo "$size: the random model could not be made: $(tail -3 $OUT/make-$size.log)"; return 1; }
  grep muted $OUT/make-$size.log
  stage "$size: ggml F16 file"
  python3 scripts/gpu/whisper_ggml.py convert $W/hf-$size $W/ggml-$size-f16.bin > $OUT/convert-$size.log 2>&1 \
      || echo "$size: conversion failed: $(tail -3 $OUT/convert-$size.log)"
  touch $W/hf-$size/muted-seed-1
}

if [ -n "$PREP" ]; then
  for size in ${SIZES:-tiny large-v3-turbo}; do make_models; done
  stage "prepared: the second call (carry .gpu-wspeed .gl) measures"; exit 0
fi
for size in ${SIZES:-tiny large-v3-turbo}; do
  late "$size" && continue
  make_models || continue
  tokens=220
  # the bars' figures first (the engine on the ggml F16 file, whose projections stay F16 since 20d3274, and on the
  # F32 folder; transformers; whisper.cpp as it runs by default), then the extras, so that a slow machine drops the
  # extras when past the budget
  engine ggml-f16; transformers; cpp fa
  # the step ahead against the plain greedy loop, alternating (AHEAD_ROUNDS pairs, default 3; 0: none)
  for r in $(seq 1 ${AHEAD_ROUNDS:-3}); do engine ggml-f16-plain $r; engine ggml-f16 $r; done
  engine f32; engine tf32; cpp nfa
  [ "${HALF_MATVEC:-0}" = 1 ] && engine ggml-f16-mv
done
stage "done: $J"
# the device tool brings back only a few files of $OUT: everything in one archive as well
tar czf /tmp/whisper-speed-all.tgz -C $OUT . && mv /tmp/whisper-speed-all.tgz $OUT/
