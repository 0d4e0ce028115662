#!/bin/bash
# The many-streams comparison of docs/PERFORMANCE.md (issue 28) in alternating rounds: one warm engine server and
# transformers' batched generate() take turns on the same GPU in one device call, so that a machine's drift or a
# neighbour's load falls on both sides. From the repository root after scripts/gpu/batching-package, carrying .gpu
# (and .gpub for MODEL=base, in a second call on the same warm machine); $OUT collects the raw output.
#   round 0: the server (CUDA, default batch) after one untimed 64-client round; asr-load.py writes the pairs and the
#            engine's token counts the peer is forced to
#   rounds 1..ALT_ROUNDS: the engine's 64-client load (ROUNDS requests a client), then the peer's best batches
#            (BATCHES, default 32,64; fp32 and bf16, median of 3 passes each)
# Then medians per side and their ratio (scripts/gpu/batching_alternating_summary.py). The server is never restarted:
# this is the warm many-streams regime, not a one-shot one.
#   MODEL=tiny|base  ALT_ROUNDS=3  CLIENTS=64  ROUNDS=3  BATCHES=32,64  ENGINE_OPTS="--option cuda.tf32=on" (extra)
set -u
. scripts/gpu/batching-setup.sh
CLIENTS=${CLIENTS:-64} ROUNDS=${ROUNDS:-3} ALT_ROUNDS=${ALT_ROUNDS:-3}
MODEL=${MODEL:-tiny}; export ASR_MODEL=moonshine-$MODEL
AUDIO=.gpu/audio; [ -d $AUDIO ] || AUDIO=.gpub/audio; [ -d $AUDIO ] || AUDIO=.gpub-dec/audio
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('http://localhost:8090'+sys.argv[1], timeout=5).read().decode())" "$1"; }
$AE serve --port 8090 --models $ASR_MODEL --preload --queue 256 --backend cuda ${ENGINE_OPTS:-} > $OUT/serve-$MODEL.log 2>&1 &
pid=$!
for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; sleep 1; done
get /ready >/dev/null || { echo "the server did not become ready"; tail -20 $OUT/serve-$MODEL.log; exit 1; }
for r in $(seq 1 $ALT_ROUNDS); do
  # the first round's untimed warm-up compiles the batch shapes; later rounds find them compiled
  WARM=$([ $r = 1 ] && echo 1 || echo 0) timeout 300 python3 scripts/gpu/asr-load.py http://localhost:8090 $AUDIO \
    $CLIENTS $ROUNDS /tmp/pairs-$MODEL engine-r$r | tee -a $OUT/engine-$MODEL.jsonl
  BATCHES=${BATCHES:-32,64} LABEL=peer-r$r timeout 300 python3 scripts/peers/moonshine-transformers-batched.py \
    /tmp/pairs-$MODEL $MODEL 3 2>&1 | grep -v Warning | tee -a $OUT/transformers-$MODEL.jsonl
done
get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-$MODEL.txt
kill $pid; wait $pid 2>/dev/null
python3 scripts/gpu/batching_alternating_summary.py $OUT/engine-$MODEL.jsonl $OUT/transformers-$MODEL.jsonl \
  | tee $OUT/summary-$MODEL.txt
