package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.model.task.WarmUp;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --preload runs each model once on a short input before /ready (issue 26: the first request meets a warm engine). */
class PreloadWarmTest {
    private final List<String> calls = new ArrayList<>();

    @SuppressWarnings("unchecked")
    private <T> T recording(Class<T> type) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            calls.add(m.getName()
                    + (args != null && args.length > 0 && args[0] instanceof float[] a ? " " + a.length : "")
                    + (args != null && args.length > 0 && args[0] instanceof String t ? " " + t : ""));
            return switch (m.getName()) {
                case "sampleRates" -> List.of(8000, 16000);
                default -> null;
            };
        });
    }

    @Test
    void eachTaskRunsOnceOnAShortInput() {
        WarmUp.run(recording(SpeechRecognizer.class));
        WarmUp.run(recording(VoiceActivityDetector.class));
        WarmUp.run(recording(SpeechSynthesizer.class));
        assertThat(calls)
                .containsExactly("transcribeWindow 32000", "sampleRates", "probabilities 16000", "synthesize Hello.");
    }
}
