#!/bin/bash
# Whisper's many-streams comparison (issue 30's last speed item): the engine's server decoding many requests together
# (one batched decoder step over the windows of concurrent requests, --max-batch, as for Moonshine) against
# transformers' batched generate(), in alternating rounds on one warm GPU machine, as scripts/gpu/batching-alternating.sh
# does for Moonshine. On the muted seeded random weights of scripts/gpu/whisper-speed.sh (every token from EOT on
# unpickable: every decoder decodes exactly 220 tokens a window), so both sides run 220 decoder steps a window.
#
# Needs what `bash scripts/gpu/whisper-speed.sh --prepare` leaves on the machine: the engine's image unpacked in
# /tmp/audioengine and, per size, /tmp/w/hf-SIZE (the transformers folder, muted) and /tmp/w/ggml-SIZE-f16.bin (its
# ggml F16 conversion). Here (no device time): scripts/gpu/whisper-package (a fresh image: remove .gpu-whisper first
# when the engine changed) && scripts/gpu/whisper-speed-package; then, through the device tool, on one warm machine:
#     run: bash scripts/gpu/whisper-speed.sh --prepare      carry: .gpu-wspeed-image   (SIZES=tiny to make tiny alone)
#     run: bash scripts/gpu/whisper-batching.sh             carry: .gl                 (the tracked tree rides anyway)
#
#   0. the audio: 10 "recordings" of 12-14.25 s cut from the repository's docs/examples/dashwood.wav and speech.wav
#      (scripts/gpu/whisper_batching.py audio); asr-load.py sends each client its own pair with 0.8 s of silence
#      between, 25-29 s: one Whisper window a request
#   1. `audioengine serve --backend cuda` on the ggml F16 file (the engine's main line in whisper-speed.sh), served as
#      whisper-muted-SIZE, --max-batch MAX_BATCH (64, the GPU default, given explicitly), --queue 256, --preload; every
#      request sends language=en and temperature_inc=0 (ASR_FIELDS) and verbose_json, and leaves the segmenter at
#      Whisper's own (the default offline: sequential 30 s windows, timestamps on)
#   2. a probe request (whisper_batching.py probe): 220 tokens and temperature 0, else it stops here; the server must
#      decode each window once, greedily (as `bench asr --no-fallback`): a muted window fails Whisper's checks, and
#      with the temperature fallback on each request decodes at 0, 0.2 ... 1.0 with best-of 5. temperature_inc=0
#      (whisper.cpp's server's field, docs/SERVER.md) turns the fallback off per request; ALLOW_FALLBACK=1 goes on
#      without it
#   3. rounds 1..ALT_ROUNDS (3): the engine under CLIENTS (64) concurrent clients, ROUNDS (3) requests each
#      (asr-load.py: first every pair once, one at a time: the single-stream figure; round 1 first runs one untimed
#      64-client round, which compiles the batch shapes), then the transformers peer
#      (scripts/peers/whisper-transformers-batched.py: BATCHES 32,64, fp32 with TF32 off and fp16, sdpa, timestamps
#      none, forced to the engine's token count, one warm-up and the median of 3 passes)
#   4. the server's /metrics (batch occupancy, lone windows), then a lone client (CLIENTS=1, LONE_ROUNDS=8 requests
#      one after another) on the same warm server
#   5. the peer once more with transformers' timestamp rules (TIMESTAMPS=rules, batch 64, both dtypes), for reference
#   6. medians and ratio (batching_alternating_summary.py through whisper_batching.py summary)
# Stages are timed on stdout ("[T s] ..."); past BUDGET_S (330 s) a stage is skipped, so the whole call stays within
# about 450 s for tiny on an H100/H200 (each stage is also cut at STAGE_S, 200 s).
#   SIZE=tiny|large-v3-turbo  ALT_ROUNDS=3  CLIENTS=64  ROUNDS=3  MAX_BATCH=64  BATCHES=32,64  DTYPES=float32,float16
#   LONE_ROUNDS=8  ENGINE_OPTS="--option cuda.tf32=on" (global options, extra)  SERVE_OPTS (serve options, extra)
#   ASR_FIELDS=language=en,temperature_inc=0 (form fields of every request)  AUDIOENGINE_JAVA_OPTS (the server's JVM)
# Everything goes to $OUT: engine-SIZE.jsonl, transformers-SIZE.jsonl, engine-lone-SIZE.jsonl,
# transformers-rules-SIZE.jsonl, summary-SIZE.txt, metrics, the server's log, and all of it in whisper-batching-all.tgz.
set -u
T0=$(date +%s)
stage() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
late() { [ $(( $(date +%s) - T0 )) -gt ${BUDGET_S:-330} ] && { echo "[$(( $(date +%s) - T0 )) s] skipped, past ${BUDGET_S:-330} s: $*"; return 0; }; return 1; }
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SIZE=${SIZE:-tiny} CLIENTS=${CLIENTS:-64} ROUNDS=${ROUNDS:-3} ALT_ROUNDS=${ALT_ROUNDS:-3} MAX_BATCH=${MAX_BATCH:-64}
STAGE_S=${STAGE_S:-200} PORT=${PORT:-8090}
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# AE, W and BACKEND (with the peer's DEVICE=cpu) only let the script's plumbing be tried on a CPU machine
AE=${AE:-/tmp/audioengine/bin/audioengine} W=${W:-/tmp/w} A=/tmp/wspeed-assets BACKEND=${BACKEND:-cuda}
GGML=$W/ggml-$SIZE-f16.bin HF=$W/hf-$SIZE
for f in $AE $GGML $HF/muted-seed-1; do
  [ -e $f ] || { echo "no $f: on this same warm machine run first, through the device tool,"
                 echo "  bash scripts/gpu/whisper-speed.sh --prepare      carry: .gpu-wspeed-image"
                 echo "(SIZES=$SIZE before it to make $SIZE alone; scripts/gpu/whisper-speed-package makes .gpu-wspeed-image here)"
                 exit 1; }
done
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done; ldconfig
export AUDIOENGINE_CACHE=/tmp/ae-cache; mkdir -p $AUDIOENGINE_CACHE
[ -f $A/silero_vad_v6.onnx ] && cp $A/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)"
  $AE --version 2>&1 | head -1; echo "image: $(stat -c %y $AE)"; } | tee $OUT/device.txt
stage "$SIZE: engine image in /tmp/audioengine, models in $W"

AUD=/tmp/wb-audio PAIRS=/tmp/wb-pairs-$SIZE
python3 scripts/gpu/whisper_batching.py audio $AUD | tee $OUT/audio.json
export ASR_MODEL=whisper-muted-$SIZE ASR_FIELDS=${ASR_FIELDS:-language=en,temperature_inc=0}
url=http://localhost:$PORT
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('$url'+sys.argv[1], timeout=5).read().decode())" "$1"; }
nofb=(); $AE serve --help 2>&1 | grep -q -- '--no-fallback' && nofb=(--no-fallback)
stage "$SIZE: serve $GGML as $ASR_MODEL, --max-batch $MAX_BATCH ${nofb[*]:-(no --no-fallback option)}"
$AE --backend $BACKEND --fallback fail ${ENGINE_OPTS:-} serve --port $PORT --models $ASR_MODEL=$GGML --preload \
    --queue 256 --max-batch $MAX_BATCH ${nofb[@]+"${nofb[@]}"} ${SERVE_OPTS:-} > $OUT/serve-$SIZE.log 2>&1 &
pid=$!
stop() { kill $pid 2>/dev/null; wait $pid 2>/dev/null; }
for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; kill -0 $pid 2>/dev/null || break; sleep 1; done
get /ready >/dev/null 2>&1 || { echo "the server did not become ready"; tail -20 $OUT/serve-$SIZE.log; stop; exit 1; }
grep -E "batching|listening|loaded" $OUT/serve-$SIZE.log

stage "$SIZE: probe (one request: 220 tokens at temperature 0?)"
timeout $STAGE_S python3 scripts/gpu/whisper_batching.py probe $url $AUD | tee $OUT/probe-$SIZE.txt
rc=${PIPESTATUS[0]}
if [ $rc != 0 ] && ! { [ $rc = 3 ] && [ "${ALLOW_FALLBACK:-0}" = 1 ]; }; then
  tail -5 $OUT/serve-$SIZE.log; stop; exit 1
fi

for r in $(seq 1 $ALT_ROUNDS); do
  if ! late "round $r engine"; then
    stage "$SIZE round $r: engine, $CLIENTS clients x $ROUNDS requests$([ $r = 1 ] && echo ', after one untimed round')"
    # the first round's untimed warm-up compiles the batch shapes; later rounds find them compiled
    WARM=$([ $r = 1 ] && echo 1 || echo 0) timeout $STAGE_S python3 scripts/gpu/asr-load.py $url $AUD \
      $CLIENTS $ROUNDS $PAIRS engine-r$r | tee -a $OUT/engine-$SIZE.jsonl
  fi
  [ -f $PAIRS/pairs.json ] || { echo "no $PAIRS/pairs.json: the engine's first round did not finish"; break; }
  if ! late "round $r transformers"; then
    stage "$SIZE round $r: transformers batched"
    BATCHES=${BATCHES:-32,64} DTYPES=${DTYPES:-float32,float16} TIMESTAMPS=none LABEL=peer-r$r timeout $STAGE_S \
      python3 scripts/peers/whisper-transformers-batched.py $HF $PAIRS 3 2> $OUT/transformers-$SIZE-r$r.log \
      | tee -a $OUT/transformers-$SIZE.jsonl
    [ ${PIPESTATUS[0]} = 0 ] || echo "transformers failed: $(grep -v Warning $OUT/transformers-$SIZE-r$r.log | tail -3)"
  fi
done
get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-$SIZE.txt
if ! late "lone client"; then
  stage "$SIZE: one client, ${LONE_ROUNDS:-8} requests one after another"
  WARM=0 timeout $STAGE_S python3 scripts/gpu/asr-load.py $url $AUD 1 ${LONE_ROUNDS:-8} /tmp/wb-pairs-lone-$SIZE \
    engine-lone | tee $OUT/engine-lone-$SIZE.jsonl
fi
get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-end-$SIZE.txt
stop
if [ -f $PAIRS/pairs.json ] && ! late "transformers with timestamp rules"; then
  stage "$SIZE: transformers batched with its timestamp rules (reference)"
  BATCHES=64 DTYPES=${DTYPES:-float32,float16} TIMESTAMPS=rules LABEL=peer-rules timeout $STAGE_S \
    python3 scripts/peers/whisper-transformers-batched.py $HF $PAIRS 3 2> $OUT/transformers-rules-$SIZE.log \
    | tee $OUT/transformers-rules-$SIZE.jsonl
fi
stage "$SIZE: summary"
python3 scripts/gpu/whisper_batching.py summary $OUT/engine-$SIZE.jsonl $OUT/transformers-$SIZE.jsonl \
  $OUT/engine-lone-$SIZE.jsonl $OUT/transformers-rules-$SIZE.jsonl $OUT/metrics-$SIZE.txt | tee $OUT/summary-$SIZE.txt
stage "done"
# the device tool brings back only a few files of $OUT: everything in one archive as well
tar czf /tmp/whisper-batching-all.tgz -C $OUT . && mv /tmp/whisper-batching-all.tgz $OUT/
