#!/bin/bash
# Wake words (openWakeWord) and notes (Basic Pitch) on CUDA and Vulkan against the CPU on the GPU machine (issue 33),
# after scripts/gpu/tasks-package, carrying .gpu-tasks and .gl: every frame's keyword scores (--scores-out) within
# 1e-4 of the CPU's and the same detections; the same note events. $OUT gets every output and a summary.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xJf .gpu-tasks/audioengine-image.tar.xz -C /tmp
export AUDIOENGINE_CACHE=/tmp/ae-cache
mkdir -p $AUDIOENGINE_CACHE && cp .gpu-tasks/cache/* $AUDIOENGINE_CACHE/
AE=/tmp/audioengine/bin/audioengine
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for b in cpu cuda vulkan; do
  for a in jarvis alexa speech; do
    $AE --backend $b --fallback fail --task kws --audio .gpu-tasks/in/$a.wav --json --scores-out $OUT/kws-$b-$a.csv > $OUT/kws-$b-$a.json 2> $OUT/kws-$b-$a.err || echo "kws $b $a failed: $(tail -2 $OUT/kws-$b-$a.err)"
  done
  for a in melody chord speech; do
    $AE --backend $b --fallback fail --task notes --audio .gpu-tasks/in/$a.wav --json > $OUT/notes-$b-$a.json 2> $OUT/notes-$b-$a.err || echo "notes $b $a failed: $(tail -2 $OUT/notes-$b-$a.err)"
  done
done
python3 scripts/gpu/tasks-compare.py $OUT | tee $OUT/summary.txt
