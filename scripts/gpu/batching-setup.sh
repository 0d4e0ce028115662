# Sourced by the batching scripts on the GPU machine (scripts/gpu/batching-evidence.sh, batching-profile.sh): the
# image from .gpu/ unpacked into /tmp, moonshine-tiny, its vocabulary and the Silero VAD into a model cache, AE set to
# the launcher, the device's name into $OUT/device.txt.
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AUDIOENGINE_CACHE=/tmp/ae-cache
mkdir -p $AUDIOENGINE_CACHE
# a second call that carries only .gpub finds the image and tiny's files where the first call unpacked them
if [ -d .gpu ]; then
  tar xJf .gpu/audioengine-image.tar.xz -C /tmp
  xz -dc .gpu/tiny/encoder_model.onnx.xz > $AUDIOENGINE_CACHE/moonshine-tiny-quantized-encoder_model.onnx
  xz -dc .gpu/tiny/decoder_model_merged.onnx.xz > $AUDIOENGINE_CACHE/moonshine-tiny-quantized-decoder_model_merged.onnx
  cp .gpu/llama-tokenizer.js .gpu/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
fi
# moonshine-base rides in a second call on the same warm machine (.gpub: 45 MB of xz'd ONNX, too large beside .gpu)
# (or, where the image rides beside it, in pieces over two calls: each file that came is unpacked, none overwritten
# by one that did not; see scripts/gpu/base-split-package)
for d in .gpub .gpub-enc .gpub-dec; do
  for f in encoder_model decoder_model_merged; do
    [ -f $d/moonshine-base-quantized-$f.onnx.xz ] \
      && xz -dc $d/moonshine-base-quantized-$f.onnx.xz > $AUDIOENGINE_CACHE/moonshine-base-quantized-$f.onnx
  done
  [ -f $d/llama-tokenizer.js ] && cp $d/llama-tokenizer.js $AUDIOENGINE_CACHE/
done
AE=/tmp/audioengine/bin/audioengine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/device.txt
