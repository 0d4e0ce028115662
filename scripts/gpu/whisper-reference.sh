#!/bin/bash
# Issue 30's transformers check at the released geometries on the GPU machine: the folders that
# `bash scripts/gpu/whisper-speed.sh --prepare` made in /tmp/w (hf-SIZE: transformers' seeded random weights, muted,
# with its encoder states and teacher-forced logits for docs/examples/dashwood.wav: whisper-transformers-reference.py,
# fp32, TF32 off, on the GPU) are loaded by the engine on the CPU and on CUDA (scripts/gpu/WhisperProbe.java, compiled
# by scripts/gpu/whisper-speed-package into the package's probe/): each within 1e-4 of the reference's largest |value|.
# The same check runs on this machine's CPU, reference included: scripts/peers/whisper-transformers-geometries.
#     run: bash scripts/gpu/whisper-speed.sh --prepare && bash scripts/gpu/whisper-reference.sh    carry: .gpu-wspeed-image
# BACKENDS (default "cpu cuda"); SIZES (default: every /tmp/w/hf-*/reference.json). Writes $OUT/reference-probe.txt.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
probe=$(ls -d .gpu-wspeed-image/probe .gpu-wspeed/probe /tmp/wspeed-assets/probe 2>/dev/null | head -1)
[ -n "$probe" ] || { echo "no compiled WhisperProbe: carry .gpu-wspeed-image (scripts/gpu/whisper-speed-package)"; exit 1; }
mkdir -p /tmp/wspeed-assets && [ "$probe" = /tmp/wspeed-assets/probe ] || cp -r "$probe" /tmp/wspeed-assets/
[ -x /tmp/audioengine/bin/java ] || { echo "no engine image in /tmp/audioengine: run whisper-speed.sh --prepare first"; exit 1; }
status=0
for ref in /tmp/w/hf-*/reference.json; do
  [ -f "$ref" ] || { echo "no reference in /tmp/w: run whisper-speed.sh --prepare first"; exit 1; }
  dir=$(dirname "$ref"); size=${dir#/tmp/w/hf-}
  case " ${SIZES:-$size} " in *" $size "*) ;; *) continue ;; esac
  echo "== $size: $(python3 -c "import json; m=json.load(open('$ref')); print(m['device'], m['dtype'], 'transformers', m['transformers'], 'torch', m['torch'])")"
  timeout 300 /tmp/audioengine/bin/java --add-modules ALL-SYSTEM -cp /tmp/wspeed-assets/probe WhisperProbe "$dir" \
      docs/examples/dashwood.wav ${BACKENDS:-cpu cuda} 2>&1 | grep -v "^WARNING" | tee -a "$OUT/reference-probe.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
exit $status
