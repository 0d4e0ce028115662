#!/bin/bash
# The Moonshine GPU evidence (docs/PERFORMANCE.md): run on the H200 through the device tool from the repository root
# after scripts/gpu/moonshine-gpu-package, carrying .gpu and .gl; $OUT collects the results.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xJf .gpu/audioengine-image.tar.xz -C /tmp
python3 - <<'PY'   # 24.7 s: the five LibriVox clips joined (made here: carrying it would pass the 64 MiB limit)
import glob, wave
clips = sorted(glob.glob(".gpu/audio/sense_*.wav"))
with wave.open("/tmp/audio30.wav", "wb") as out:
    out.setparams(wave.open(clips[0]).getparams())
    for c in clips: out.writeframes(wave.open(c).readframes(1 << 30))
PY
AE=/tmp/audioengine/bin/audioengine
J="/tmp/audioengine/bin/java --add-modules ALL-SYSTEM -cp .gpu/probe MoonshineProbe"
W=.gpu/audio/sense_and_sensibility_01_austen_64kb-0870.wav
for o in "" "--option cuda.graphs=off"; do timeout 120 $AE check --backend cuda $o --op attention --seed 2026 > $OUT/check-attention-cuda${o:+-nographs}.txt 2>&1; tail -1 $OUT/check-attention-cuda${o:+-nographs}.txt; grep -E ' FAIL|UNSUPP' $OUT/check-attention-cuda${o:+-nographs}.txt | head -5; done
timeout 150 $J parity .gpu/tiny .gpu/llama-tokenizer.js .gpu/audio/*.wav -- cpu cuda cuda:graphs=off cuda,-fused_attention vulkan > $OUT/moonshine-parity.txt 2>&1; grep -E 'PASS|FAIL|Exception' $OUT/moonshine-parity.txt | cut -c1-160
timeout 200 python3 scripts/peers/moonshine-transformers-speed.py /tmp/w $W 40 10 > $OUT/transformers-speed.txt 2>&1; grep -v 'Writing\|Loading' $OUT/transformers-speed.txt
for s in tiny base; do for w in $W /tmp/audio30.wav; do
  timeout 150 $J speed /tmp/w/hf-$s .gpu/llama-tokenizer.js $w 40 10 -- cuda@F32 cuda,-fused_attention@F32 cuda@Q8_0 cuda@BF16 vulkan@Q8_0 2>&1 | grep -v 'INFO\|GpuBackend\|WARN' | cut -c1-180 | tee -a $OUT/engine-speed.txt
done; done
