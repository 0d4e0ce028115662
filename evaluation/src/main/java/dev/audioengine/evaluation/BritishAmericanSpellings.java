package dev.audioengine.evaluation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * British spellings to American ones, word by word, from {@code british-american-spellings.txt} beside this class:
 * the common patterns only (see the file's header). Whisper ships a map of about 1700 words; this one is written
 * for this project and lists only words that map the same way there, so rarer British spellings stay as spelt.
 */
final class BritishAmericanSpellings {
    private static final String RESOURCE = "british-american-spellings.txt";
    private static final Map<String, String> AMERICAN = load();

    private BritishAmericanSpellings() {}

    /** The American spelling of {@code word}, or the word itself. */
    static String american(String word) {
        return AMERICAN.getOrDefault(word, word);
    }

    /** Every British spelling listed, with its American one (for tests). */
    static Map<String, String> all() {
        return AMERICAN;
    }

    private static Map<String, String> load() {
        Map<String, String> map = new HashMap<>();
        try (InputStream in = BritishAmericanSpellings.class.getResourceAsStream(RESOURCE)) {
            if (in == null)
                throw new IllegalStateException(
                        RESOURCE + " is missing from the model-api jar; the build did not copy its resources");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int lineNumber = 0;
            for (String line; (line = r.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] pair = line.strip().split(" ");
                if (pair.length != 2 || map.put(pair[0], pair[1]) != null) {
                    throw new IllegalStateException(RESOURCE + " line " + lineNumber
                            + ": expected a new British word and its American spelling, got \"" + line + "\"");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE + " from the model-api jar", e);
        }
        return Map.copyOf(map);
    }
}
