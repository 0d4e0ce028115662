#!/bin/bash
# One device call for the half mat-vec kernel (cuda.half_matvec_rows, docs/WHISPER.md): does it hold on a real GPU,
# and what does it give Whisper's decoding. Carry .gpu-wspeed-image (scripts/gpu/whisper-package, then
# scripts/gpu/whisper-speed-package); then, on the GPU machine:
#   bash scripts/gpu/whisper-matvec.sh
#   1. the image unpacked and tiny's muted random model made (whisper-speed.sh --prepare with SIZES=tiny)
#   2. `check --backend cuda --op matmul` with the kernel on for up to 16 rows (every F16/BF16 case of few rows then
#      runs it), against the CPU backend
#   3. the engine warm on tiny's ggml F16 file (220 tokens), the library's half path and the kernel alternating,
#      ROUNDS times each (`bench asr`, median of 5 runs each)
#   4. one profiled run with the kernel (cuda.profile=on: launches per op and kernel)
# Output in $OUT: check-matmul.txt, bench.jsonl, profile.txt, and all of it in matvec-all.tgz.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SIZES=tiny bash scripts/gpu/whisper-speed.sh --prepare 2>&1 | tail -3
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AUDIOENGINE_CACHE=/tmp/ae-cache
AE=/tmp/audioengine/bin/audioengine; WAV=docs/examples/dashwood.wav; M=/tmp/w/ggml-tiny-f16.bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
$AE check --backend cuda --op matmul --seed 2026 --option cuda.half_matvec_rows=16 > $OUT/check-matmul.txt 2>&1
echo "check: rc $? $(grep -ciE 'fail' $OUT/check-matmul.txt) lines naming failures; $(tail -2 $OUT/check-matmul.txt | tr '\n' ' ')"
for r in $(seq 1 ${ROUNDS:-2}); do
  for rows in 0 16; do
    $AE --backend cuda --fallback fail --option cuda.half_matvec_rows=$rows bench asr --json --model $M --audio $WAV \
        --runs 5 --language en --no-fallback 2> $OUT/bench-$rows-$r.err \
      | python3 -c "import json,sys; d=json.load(sys.stdin); d['half_matvec_rows']=$rows; d['round']=$r; print(json.dumps(d))" \
      | tee -a $OUT/bench.jsonl
  done
done
$AE --backend cuda --fallback fail --option cuda.half_matvec_rows=16 --option cuda.profile=on bench asr --model $M \
    --audio $WAV --runs 1 --language en --no-fallback > /dev/null 2> $OUT/profile.txt
head -12 $OUT/profile.txt | tail -10
tar czf /tmp/matvec-all.tgz -C $OUT . && mv /tmp/matvec-all.tgz $OUT/
