#!/bin/bash
# Batched decoding on the H200 (docs/PERFORMANCE.md, issue 28), engine and peer in one device call, from the repository
# root after scripts/gpu/batching-package, carrying .gpu and .gl; $OUT collects the raw output.
#   0. audioengine check --backend cuda for the three ops the batched step generalised (write_slice, key_mask,
#      attention) and matmul (quantized weights of wide products through the GEMM library), against the CPU backend.
#   1. audioengine serve --backend cuda, moonshine-tiny (real npm weights): --max-batch 1 (one window at a time, the
#      decoder before batching) and the default (64); 64 clients at once, each its own audio, checked for cross-talk
#      (scripts/gpu/asr-load.py), after one pass one request at a time (single-stream latency).
#   2. the same server on Vulkan (the NVIDIA driver's), default batch.
#   3. transformers generate() batched 8-64, fp32 and bf16, on the same pairs with the engine's token counts
#      (scripts/peers/moonshine-transformers-batched.py).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
. scripts/gpu/batching-setup.sh
CLIENTS=${CLIENTS:-64} ROUNDS=${ROUNDS:-3}
# MODEL=base: moonshine-base (carry .gpub in a second call while the machine that unpacked .gpu is warm)
MODEL=${MODEL:-tiny}; export ASR_MODEL=moonshine-$MODEL; T=$([ $MODEL = tiny ] || echo "-$MODEL")
# the batched step's ops on CUDA against the CPU backend first: a wrong kernel makes the figures below meaningless
for op in ${CHECK_OPS:-write_slice key_mask attention matmul}; do
  timeout 60 $AE check --backend cuda --op $op --seed 2026 > $OUT/check-cuda-$op.txt 2>&1
  echo "check $op rc=$? $(tail -1 $OUT/check-cuda-$op.txt)"; grep -E ' FAIL|UNSUPP|threw' $OUT/check-cuda-$op.txt | head -5
done
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('http://localhost:8090'+sys.argv[1], timeout=5).read().decode())" "$1"; }
serve() {  # label, backend options...
  local label=$1; shift
  $AE serve --port 8090 --models $ASR_MODEL --preload --queue 256 "$@" > $OUT/serve-$label$T.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; sleep 1; done
  timeout 400 python3 scripts/gpu/asr-load.py http://localhost:8090 .gpu/audio $CLIENTS $ROUNDS /tmp/pairs$T $label$T | tee -a $OUT/engine.jsonl
  cp /tmp/pairs$T/metrics-before-load-$label$T.txt $OUT/ 2>/dev/null
  get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-$label$T.txt
  kill $pid; wait $pid 2>/dev/null
}
# BATCH1=0 leaves out the --max-batch 1 servers (single-stream latency already measured)
[ "${BATCH1:-1}" = 0 ] || serve cuda-batch1 --backend cuda --max-batch 1 --max-concurrent $CLIENTS
serve cuda-batch64 --backend cuda
cat $OUT/metrics-cuda-batch64$T.txt
# the peer before the repeats and Vulkan: if the call runs out of time, the same-call ratio is what must survive
[ "${PEER:-1}" = 1 ] && timeout 300 python3 scripts/peers/moonshine-transformers-batched.py /tmp/pairs$T $MODEL 3 2>&1 | grep -v Warning | tee $OUT/transformers$T.jsonl
# REPEAT=0 / VULKAN=0 / PEER=0 leave out the second alternating round, the Vulkan run, transformers (a short budget)
if [ "${REPEAT:-1}" = 1 ]; then
  [ "${BATCH1:-1}" = 0 ] || serve cuda-batch1-again --backend cuda --max-batch 1 --max-concurrent $CLIENTS
  serve cuda-batch64-again --backend cuda
fi
# EXTRA: more CUDA servers, label:option,option ... (commas for spaces), e.g. EXTRA="mv16:--option,cuda.matvec_max_rows=16"
for spec in ${EXTRA:-}; do opts=${spec#*:}; serve cuda-${spec%%:*} --backend cuda ${opts//,/ }; done
[ "${VULKAN:-1}" = 1 ] && serve vulkan-batch64 --backend vulkan --max-batch 64
