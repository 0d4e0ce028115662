package dev.audioengine.server.openai;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * OpenAI's voice names that stand for a voice of the served model: only those with a namesake among Kokoro's voices
 * (Kokoro's own af_alloy, am_echo, bm_fable, af_nova, am_onyx carry OpenAI's names). OpenAI's other names (ash,
 * ballad, coral, sage, shimmer, verse, marin, cedar) have none, and picking a stranger for them would give a client a
 * voice it did not ask for; they are refused with the list of voices.
 */
final class OpenAiVoices {
    private OpenAiVoices() {}

    static final Map<String, String> TABLE;

    static {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("alloy", "af_alloy");
        t.put("echo", "am_echo");
        t.put("fable", "bm_fable");
        t.put("nova", "af_nova");
        t.put("onyx", "am_onyx");
        TABLE = java.util.Collections.unmodifiableMap(t);
    }

    /** The model's voice OpenAI's {@code name} stands for, if it has one. */
    static Optional<String> voiceFor(String name) {
        return Optional.ofNullable(TABLE.get(name));
    }
}
