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
if [ -d .gpub ]; then
  xz -dc .gpub/moonshine-base-quantized-encoder_model.onnx.xz > $AUDIOENGINE_CACHE/moonshine-base-quantized-encoder_model.onnx
  xz -dc .gpub/moonshine-base-quantized-decoder_model_merged.onnx.xz > $AUDIOENGINE_CACHE/moonshine-base-quantized-decoder_model_merged.onnx
fi
AE=/tmp/audioengine/bin/audioengine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/device.txt
