#!/bin/bash
# One-shot CUDA transcription as a user meets it on a new machine (docs/PERFORMANCE-cuda.md, "Cold start"): run on
# the GPU machine through the device tool from the repository root after scripts/gpu/cold-start-package, carrying
# .gpu; $OUT collects the raw output. Each round is a whole process of the README's main job on --backend cuda:
#   fresh   an empty cache (no compiled kernels, no prepared weights; the model files copied in), as on a new machine
#   again   the same cache a second time
# with the kernels the jar ships (prebuilt, the default) and with cuda.prebuilt_kernels=off (NVRTC compiles them).
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xJf .gpu/audioengine-image.tar.xz -C /tmp
mkdir -p /tmp/models && for f in .gpu/models/*.xz; do xz -dc "$f" > "/tmp/models/$(basename "$f" .xz)"; done
AE=/tmp/audioengine/bin/audioengine
W=docs/examples/dashwood.wav
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
run() { # label cache extra...
    local label=$1 cache=$2; shift 2
    # wall seconds and the peak RSS (KB) of the largest process, as /usr/bin/time -f '%e %M' gives them (python: the
    # GPU machine may lack GNU time)
    AUDIOENGINE_CACHE=$cache python3 -c '
import resource, subprocess, sys, time
t = time.time(); rc = subprocess.call(sys.argv[1:], stdout=open("/tmp/o", "w"), stderr=open("/tmp/e", "w"))
open("/tmp/t", "w").write("%.2f %d\n" % (time.time() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(rc)' \
        $AE --backend cuda --task asr --audio $W "$@"
    local rc=$?
    echo "$label rc=$rc wall_s+rss_kb=$(cat /tmp/t | tail -1) | $(cat /tmp/o) | $(grep -E 'wall incl|kernel' /tmp/e | tail -2 | tr '\n' ' ')" | tee -a $OUT/cold-start.txt
    [ $rc = 0 ] || cat /tmp/e >> $OUT/cold-start.txt
}
for round in 1 2 3; do
    for mode in prebuilt nvrtc; do
        c=/tmp/cache-$mode-$round; rm -rf $c ~/.nv/ComputeCache; mkdir -p $c; cp /tmp/models/* $c/
        opt=(); [ $mode = nvrtc ] && opt=(--option cuda.prebuilt_kernels=off)
        run "round $round $mode fresh" $c "${opt[@]}"
        run "round $round $mode again" $c "${opt[@]}"
    done
done
ls -la /tmp/cache-prebuilt-1 /tmp/cache-prebuilt-1/cuda /tmp/cache-nvrtc-1/cuda >> $OUT/cold-start.txt 2>&1
