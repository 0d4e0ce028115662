#!/bin/bash
# Two builds of the batched server side by side in one device call (issue 28): the image of scripts/gpu/batching-package
# in .gpu/ ("new") and an earlier one copied to .gpu-old/audioengine-image.tar.xz ("old"), each `serve --backend cuda`
# under CLIENTS concurrent clients (scripts/gpu/asr-load.py), /metrics snapshotted before and after the load so that
# the load's own stage seconds are the difference. Rounds alternate old and new.
#   run: bash scripts/gpu/batching-ab.sh     carry: .gpu .gpu-old .gl     env: RUNS, CLIENTS, ROUNDS
# RUNS: label:image:option,option ... (commas for spaces), image old or new; a run whose options include
# cuda.profile=on prints the per-kernel profile into its serve log when it stops.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
. scripts/gpu/batching-setup.sh
[ -f .gpu-old/audioengine-image.tar.xz ] && mkdir -p /tmp/old && tar xJf .gpu-old/audioengine-image.tar.xz -C /tmp/old
get() { python3 -c "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen('http://localhost:8090'+sys.argv[1], timeout=5).read().decode())" "$1"; }
run() {  # label, image, serve options...
  local label=$1 image=$2; shift 2
  local ae=$AE; [ "$image" = old ] && ae=/tmp/old/audioengine/bin/audioengine
  $ae serve --port 8090 --models moonshine-tiny --preload --queue 256 --backend cuda "$@" > $OUT/serve-$label.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 180); do get /ready >/dev/null 2>&1 && break; sleep 1; done
  timeout 300 python3 scripts/gpu/asr-load.py http://localhost:8090 .gpu/audio ${CLIENTS:-64} ${ROUNDS:-3} /tmp/pairs $label | tee -a $OUT/engine.jsonl
  cp /tmp/pairs/metrics-before-load-$label.txt $OUT/ 2>/dev/null
  get /metrics | grep -E '^audioengine_batch|^audioengine_realtime' > $OUT/metrics-$label.txt
  kill $pid; wait $pid 2>/dev/null
  python3 - "$OUT/metrics-before-load-$label.txt" "$OUT/metrics-$label.txt" <<'PY'
import sys
def read(p):
    d = {}
    for l in open(p):
        k, _, v = l.rstrip().rpartition(" ")
        try: d[k] = float(v)
        except ValueError: pass
    return d
a, b = read(sys.argv[1]), read(sys.argv[2])
print("  load only: " + ", ".join(f"{k.split('{')[0].replace('audioengine_batch_', '')}{'[' + k.split('stage=')[1][1:-2] + ']' if 'stage=' in k else ''} {b[k] - a.get(k, 0):.3f}"
      for k in b if k.endswith("_total") or "_total{" in k))
PY
}
for spec in ${RUNS:-"old1:old: new1:new: old2:old: new2:new:"}; do
  label=${spec%%:*}; rest=${spec#*:}; image=${rest%%:*}; opts=${rest#*:}
  run $label $image ${opts//,/ }
done
