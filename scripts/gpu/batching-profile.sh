#!/bin/bash
# Where a batched server's time goes under 64 clients (issue 28), on the GPU machine, after scripts/gpu/batching-package
# (for JFR=1, an image that links jdk.jfr, which the production image leaves out: the jlink line of scripts/dist run
# again by hand with --add-modules ALL-MODULE-PATH,jdk.jfr over app-cli/target/image-modules, stripped and packed
# into .gpu/audioengine-image.tar.xz as scripts/gpu/moonshine-gpu-package does). `serve --backend cuda` per run,
# /metrics before and after the load (the stage seconds of the load alone are the difference); $OUT gets the
# recording, both metrics and the load's JSON line.
#   run: bash scripts/gpu/batching-profile.sh     carry: .gpu .gl      env: RUNS (below), JFR=1, CLIENTS, ROUNDS
. scripts/gpu/batching-setup.sh
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('http://localhost:8090'+sys.argv[1], timeout=5).read().decode())" "$1"; }
run() {  # label, serve options...
  local label=$1; shift
  AUDIOENGINE_JAVA_OPTS="${JFR:+-XX:StartFlightRecording=filename=$OUT/$label.jfr,settings=profile}" \
    $AE serve --port 8090 --models moonshine-tiny --preload --queue 256 --backend cuda "$@" > $OUT/serve-$label.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; sleep 1; done
  timeout 300 python3 scripts/gpu/asr-load.py http://localhost:8090 .gpu/audio ${CLIENTS:-64} ${ROUNDS:-3} /tmp/pairs $label | tee -a $OUT/engine.jsonl
  cp /tmp/pairs/metrics-before-load-$label.txt $OUT/ 2>/dev/null
  get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-$label.txt
  kill $pid; wait $pid 2>/dev/null
  grep stage $OUT/metrics-before-load-$label.txt $OUT/metrics-$label.txt
}
# RUNS: label:option,option ... (commas for spaces), e.g. RUNS="batch1:--max-batch,1,--max-concurrent,64 batch64:"
for spec in ${RUNS:-"batch64:"}; do opts=${spec#*:}; run ${spec%%:*} ${opts//,/ }; done
