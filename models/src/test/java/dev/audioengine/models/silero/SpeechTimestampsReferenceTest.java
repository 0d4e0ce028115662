package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Segments against Silero's own get_speech_timestamps: each fixture holds ONNX Runtime's
 * per-chunk probabilities for one file and, per option set, the segments Silero's Python
 * function returned for them (made by scripts/fixtures/silero-timestamps-fixtures.py). Option sets
 * cover the defaults, hysteresis, padding that shares gaps, and max-speech splits. The
 * "stream" lines hold the events Silero's VADIterator yielded chunk by chunk, which the
 * streaming segmenter must reproduce.
 */
class SpeechTimestampsReferenceTest {
    private static final Path DIR = Path.of("src/test/resources/silero/timestamps");

    static Stream<Path> fixtures() throws IOException {
        return Files.list(DIR).filter(p -> p.toString().endsWith(".txt")).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void segmentsEqualSilerosGetSpeechTimestamps(Path fixture) throws IOException {
        int rate = 0, window = 0;
        long samples = 0;
        float[] probs = null;
        int cases = 0;
        for (String line : Files.readAllLines(fixture)) {
            String[] f = line.trim().split("\\s+");
            switch (f[0]) {
                case "rate" -> rate = Integer.parseInt(f[1]);
                case "window" -> window = Integer.parseInt(f[1]);
                case "samples" -> samples = Long.parseLong(f[1]);
                case "probs" -> {
                    probs = new float[f.length - 1];
                    for (int i = 1; i < f.length; i++) probs[i - 1] = Float.parseFloat(f[i]);
                }
                case "case" -> {
                    VadOptions o = new VadOptions(
                            Double.parseDouble(f[1]),
                            f[2].equals("nan") ? Double.NaN : Double.parseDouble(f[2]),
                            Integer.parseInt(f[3]),
                            Integer.parseInt(f[4]),
                            Integer.parseInt(f[5]),
                            f[6].equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(f[6]));
                    List<SpeechSegment> expected = new ArrayList<>();
                    for (int i = 8; i + 1 < f.length; i += 2)
                        expected.add(new SpeechSegment(Long.parseLong(f[i]), Long.parseLong(f[i + 1]), rate));
                    assertThat(SpeechTimestamps.segments(probs, window, samples, rate, o))
                            .as("%s with %s", fixture.getFileName(), o)
                            .isEqualTo(expected);
                    cases++;
                }
                case "stream" -> {
                    VadOptions o = new VadOptions(
                            Double.parseDouble(f[1]),
                            Double.NaN,
                            0,
                            Integer.parseInt(f[2]),
                            Integer.parseInt(f[3]),
                            Double.POSITIVE_INFINITY);
                    List<SpeechEvent> expected = new ArrayList<>();
                    for (int i = 5; i + 1 < f.length; i += 2) {
                        expected.add(new SpeechEvent(
                                f[i].equals("S") ? SpeechEvent.Kind.START : SpeechEvent.Kind.END,
                                Long.parseLong(f[i + 1]),
                                rate));
                    }
                    StreamingSegmenter segmenter = new StreamingSegmenter(o, window, rate);
                    List<SpeechEvent> got = new ArrayList<>();
                    for (float p : probs) {
                        SpeechEvent e = segmenter.accept(p);
                        if (e != null) got.add(e);
                    }
                    assertThat(got)
                            .as("%s streaming with %s", fixture.getFileName(), o)
                            .isEqualTo(expected);
                    cases++;
                }
                default -> throw new IllegalStateException("unexpected fixture line in " + fixture + ": " + line);
            }
        }
        assertThat(cases).isPositive();
    }
}
