package dev.audioengine.models.moonshine;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.models.silero.SileroVadFamily;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The moonshine family (Useful Sensors, MIT): English speech recognition, tiny (27 M parameters) and base (61 M), the
 * default for {@code --task asr}. Weights are the 8-bit ONNX exports moonshine-js ships on npm, dequantized at load;
 * a Hugging Face checkpoint folder (config.json, model.safetensors, tokenizer.json) loads through {@code --model PATH}.
 * Long audio is cut into windows by Silero VAD (pinned beside the weights). Its graphs branch on fused attention and
 * BF16 weights.
 */
public final class MoonshineFamily implements ModelFamily {
    static final String TINY_NPM = "@moonshine-ai/moonshine-js@0.1.29", BASE_NPM = "@usefulsensors/moonshine-js@0.1.12";

    public static final ModelFile TOKENIZER = new ModelFile(
            "llama-tokenizer.js",
            "34a7b9f7579d40486444590c37cba6564ef40c3dd98ecdfc2f7c886ae72c898d",
            676_487,
            List.of(new ModelSource.Npm("llama-tokenizer-js@1.2.2", "package/llama-tokenizer.js")));
    public static final ModelFile TINY_ENCODER = new ModelFile(
            "moonshine-tiny-quantized-encoder_model.onnx",
            "c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a",
            7_937_661,
            List.of(new ModelSource.Npm(TINY_NPM, "package/dist/model/tiny/quantized/encoder_model.onnx")));
    public static final ModelFile TINY_DECODER = new ModelFile(
            "moonshine-tiny-quantized-decoder_model_merged.onnx",
            "eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367",
            20_243_286,
            List.of(new ModelSource.Npm(TINY_NPM, "package/dist/model/tiny/quantized/decoder_model_merged.onnx")));
    public static final ModelFile BASE_ENCODER = new ModelFile(
            "moonshine-base-quantized-encoder_model.onnx",
            "1dd9ab0a7f987113d30affcba5a068d11c8f90fa0223caa3e491ade431ad9751",
            20_513_063,
            List.of(new ModelSource.Npm(BASE_NPM, "package/dist/model/base/quantized/encoder_model.onnx")));
    public static final ModelFile BASE_DECODER = new ModelFile(
            "moonshine-base-quantized-decoder_model_merged.onnx",
            "cc9f3cd6698a369c6008b41aa60aa3fb3322e7f03c9bdf19d8e6b7200afca4f3",
            42_498_870,
            List.of(new ModelSource.Npm(BASE_NPM, "package/dist/model/base/quantized/decoder_model_merged.onnx")));

    public static final ModelVariant TINY = new ModelVariant(
            "moonshine-tiny",
            List.of("tiny", "moonshine_tiny"),
            Task.ASR,
            "Moonshine tiny, English ASR, 27 M parameters (8-bit ONNX weights)",
            List.of(TINY_ENCODER, TINY_DECODER, TOKENIZER, SileroVadFamily.V6_FILE),
            "MIT");
    public static final ModelVariant BASE = new ModelVariant(
            "moonshine-base",
            List.of("base", "moonshine_base"),
            Task.ASR,
            "Moonshine base, English ASR, 61 M parameters (8-bit ONNX weights)",
            List.of(BASE_ENCODER, BASE_DECODER, TOKENIZER, SileroVadFamily.V6_FILE),
            "MIT");

    @Override
    public String name() {
        return "moonshine";
    }

    @Override
    public String description() {
        return "Moonshine: English speech recognition (Useful Sensors), 16 kHz, long audio windowed by Silero VAD";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.ASR);
    }

    @Override
    public List<ModelVariant> variants() {
        return List.of(TINY, BASE);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.ASR;
    }

    @Override
    public Set<Capability> uses() {
        return MoonshineModel.USES;
    }

    @Override
    public String validate(Path path) throws IOException {
        MoonshineCheckpoint c = MoonshineCheckpoint.inFolder(path);
        return switch (c.kind()) {
            case ONNX_EXPORT -> "a Moonshine ONNX export (moonshine-js layout), " + path;
            case TRANSFORMERS ->
                "a Moonshine checkpoint (transformers layout, " + c.config().hidden() + " wide, "
                        + c.config().encoderLayers() + "+" + c.config().decoderLayers() + " layers"
                        + (c.tokenizer() == null ? ", no tokenizer.json: the Llama vocabulary is used" : "") + "), "
                        + path;
        };
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        if (location.task() != Task.ASR)
            throw new IllegalArgumentException(
                    "moonshine serves --task asr, not " + location.task().cliName());
        MoonshineCheckpoint checkpoint;
        Path tokenizer, vad;
        String what;
        if (location.namedVariant().isPresent()) {
            ModelVariant v = location.variant();
            ModelFile enc = v == BASE ? BASE_ENCODER : TINY_ENCODER, dec = v == BASE ? BASE_DECODER : TINY_DECODER;
            checkpoint = new MoonshineCheckpoint(
                    MoonshineCheckpoint.Kind.ONNX_EXPORT,
                    location.file(enc.name()),
                    location.file(dec.name()),
                    null,
                    null);
            tokenizer = location.file(TOKENIZER.name());
            vad = location.file(SileroVadFamily.V6_FILE.name());
            what = v.name();
        } else {
            checkpoint = MoonshineCheckpoint.inFolder(location.path());
            // a user's folder brings the network; the pinned vocabulary and VAD come from the cache (pulled once)
            ModelStore store = ModelStore.userCache();
            tokenizer = checkpoint.tokenizer() != null ? null : store.pull(TOKENIZER, m -> System.err.println(m));
            vad = store.pull(SileroVadFamily.V6_FILE, m -> System.err.println(m));
            what = "moonshine "
                    + checkpoint
                            .kind()
                            .name()
                            .toLowerCase(java.util.Locale.ROOT)
                            .replace('_', ' ') + " " + location.path();
        }
        return MoonshineRecognizer.load(engine, checkpoint, tokenizer, vad, what);
    }
}
