/** The built-in model families, written against the graph API; they never see a backend type. */
module dev.audioengine.models {
    requires transitive dev.audioengine.model;
    requires transitive dev.audioengine.weights; // SileroWeights.fromOnnx takes an OnnxModel
    requires dev.audioengine.blocks;

    exports dev.audioengine.models.asr;
    exports dev.audioengine.models.basicpitch;
    exports dev.audioengine.models.kokoro;
    exports dev.audioengine.models.kokoro.text;
    exports dev.audioengine.models.moonshine;
    exports dev.audioengine.models.openwakeword;
    exports dev.audioengine.models.silero;
    exports dev.audioengine.models.whisper;

    provides dev.audioengine.model.ModelFamily with
            dev.audioengine.models.silero.SileroVadFamily,
            dev.audioengine.models.moonshine.MoonshineFamily,
            dev.audioengine.models.kokoro.KokoroFamily,
            dev.audioengine.models.openwakeword.OpenWakeWordFamily,
            dev.audioengine.models.whisper.WhisperFamily,
            dev.audioengine.models.basicpitch.BasicPitchFamily;
}
