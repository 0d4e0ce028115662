package dev.audioengine.models.asr;

import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.model.Task;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VadStream;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** A detector whose sessions are given fakes: what the static entry points of the transcribers open. */
final class FakeDetector implements VoiceActivityDetector {
    private final Supplier<OfflineVad> offline;
    private final Supplier<VadStream> stream;
    VadOptions offlineOptions, streamOptions;
    int offlineRate, streamRate;

    FakeDetector(Supplier<OfflineVad> offline, Supplier<VadStream> stream) {
        this.offline = offline;
        this.stream = stream;
    }

    @Override
    public List<Integer> sampleRates() {
        return List.of(WindowDecoder.SAMPLE_RATE);
    }

    @Override
    public int chunkSize(int sampleRate) {
        return ScriptedOfflineVad.CHUNK;
    }

    @Override
    public float[] probabilities(float[] samples, int sampleRate) {
        throw new UnsupportedOperationException(
                "FakeDetector scripts stream() only; the transcriber must not call probabilities()");
    }

    @Override
    public Detection detect(float[] samples, int sampleRate, VadOptions options) {
        throw new UnsupportedOperationException(
                "FakeDetector scripts stream() only; the transcriber must not call detect()");
    }

    @Override
    public VadStream stream(int sampleRate, VadOptions options) {
        streamRate = sampleRate;
        streamOptions = options;
        return stream.get();
    }

    @Override
    public OfflineVad offline(int sampleRate, VadOptions options) {
        offlineRate = sampleRate;
        offlineOptions = options;
        return offline.get();
    }

    @Override
    public Task task() {
        return Task.VAD;
    }

    @Override
    public String describe() {
        return "fake";
    }

    @Override
    public Optional<RunSummary> runSummary() {
        return Optional.empty();
    }

    @Override
    public void close() {}
}
