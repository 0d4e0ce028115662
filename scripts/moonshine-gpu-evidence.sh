#!/bin/bash
# Packaged by scripts/moonshine-gpu-package (the jlinked image, the probe, moonshine-tiny and the Debian recordings under .gpu/)
# the Moonshine GPU evidence, run on the H200 from the repository root; $OUT collects the results
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xzf .gpu/audioengine-image.tar.gz -C /tmp
J="/tmp/audioengine/bin/java --add-modules ALL-SYSTEM -cp .gpu/probe MoonshineProbe"
W=.gpu/audio/sense_and_sensibility_01_austen_64kb-0870.wav
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; date -u; git log -1 --format=%H 2>/dev/null; } > $OUT/gpu.txt 2>&1
timeout 200 $J parity .gpu/tiny .gpu/llama-tokenizer.js .gpu/audio/*.wav -- cpu cuda cuda:graphs=off cuda,-fused_attention cuda@BF16 cuda@F32 vulkan vulkan,-fused_attention > $OUT/moonshine-parity.txt 2>&1
grep -E 'PASS|FAIL|Exception' $OUT/moonshine-parity.txt | cut -c1-220
timeout 200 python3 scripts/moonshine-transformers-speed.py /tmp/w $W 40 10 > $OUT/transformers-speed.txt 2>&1
grep -v Writing $OUT/transformers-speed.txt | tail -12
for s in tiny base; do timeout 120 $J speed /tmp/w/hf-$s .gpu/llama-tokenizer.js $W 40 10 -- cuda cuda:graphs=off vulkan > $OUT/engine-speed-$s.txt 2>&1; cut -c1-260 $OUT/engine-speed-$s.txt; done
