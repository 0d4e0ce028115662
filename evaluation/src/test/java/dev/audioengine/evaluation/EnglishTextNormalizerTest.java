package dev.audioengine.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class EnglishTextNormalizerTest {
    /** Written by scripts/fixtures/english-normalizer-fixture.py with Whisper's own normaliser (release 20250625). */
    private static final Path GOLDEN = Path.of("src/test/resources/text/whisper-english-normalizer.tsv");

    private static final Path POCKETSPHINX = Path.of("/usr/share/pocketsphinx/test/data");

    private final EnglishTextNormalizer normalizer = new EnglishTextNormalizer();

    private record Golden(String input, String expected) {
        boolean whisperFailed() {
            return expected.startsWith("!error ");
        }
    }

    private static List<Golden> golden() throws IOException {
        List<Golden> out = new ArrayList<>();
        for (String line : Files.readAllLines(GOLDEN, StandardCharsets.UTF_8)) {
            int tab = line.indexOf('\t');
            if (tab < 0 || line.indexOf('\t', tab + 1) >= 0)
                throw new IllegalStateException(GOLDEN + ": not two tab-separated fields: " + line);
            out.add(new Golden(unescape(line.substring(0, tab)), unescape(line.substring(tab + 1))));
        }
        return out;
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = s.charAt(++i);
            sb.append(
                    switch (e) {
                        case 't' -> '\t';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case '\\' -> '\\';
                        default -> throw new IllegalStateException(GOLDEN + ": unknown escape \\" + e);
                    });
        }
        return sb.toString();
    }

    @Test
    void normalisesEveryGoldenInputAsWhisperDoes() throws IOException {
        List<Golden> cases = golden();
        assertThat(cases).hasSizeGreaterThan(1500);
        List<String> wrong = new ArrayList<>();
        for (Golden g : cases) {
            String got = normalizer.normalize(g.input()); // must not throw, even where Whisper did
            if (!g.whisperFailed() && !got.equals(g.expected().strip()))
                wrong.add("\"" + g.input() + "\": Whisper \"" + g.expected() + "\", got \"" + got + "\"");
        }
        assertThat(wrong).as("inputs normalised differently from Whisper").isEmpty();
    }

    @Test
    void theFixtureHoldsEveryListedBritishSpelling() throws IOException {
        Set<String> inputs = new HashSet<>();
        for (Golden g : golden()) inputs.add(g.input());
        assertThat(BritishAmericanSpellings.all()).hasSizeGreaterThan(600);
        assertThat(inputs).containsAll(BritishAmericanSpellings.all().keySet());
    }

    @Test
    void handlesTheCommonCasesItPromises() {
        assertThat(normalizer.normalize("Mr. John Dashwood won't pay $20!"))
                .isEqualTo("mister john dashwood will not pay $20");
        assertThat(normalizer.normalize("twenty one")).isEqualTo("21");
        assertThat(normalizer.normalize("two hundred and five")).isEqualTo("205");
        assertThat(normalizer.normalize("three point five")).isEqualTo("3.5");
        assertThat(normalizer.normalize("one point five"))
                .as("Whisper writes a lone 1 back as one")
                .isEqualTo("one.5");
        assertThat(normalizer.normalize("the first and the twenty second")).isEqualTo("the 1st and the 22nd");
        assertThat(normalizer.normalize("fifty percent")).isEqualTo("50%");
        assertThat(normalizer.normalize("three dollars and fifty cents")).isEqualTo("$3.50");
        assertThat(normalizer.normalize("The colour [noise] (laughs) um of the Centre, uh, they're grey."))
                .isEqualTo("the color of the center they are gray");
        assertThat(normalizer.normalize("  Café,\tnaïve —   résumé  ")).isEqualTo("cafe naive resume");
        assertThat(normalizer.normalize("")).isEmpty();
    }

    @Test
    void neverFailsOnArbitraryText() {
        java.util.Random rnd = new java.util.Random(3);
        String pieces = "0123456789٣٥.,%$¢€£'\"()[]<>- \t\nabcxyzé😀\uD800\uDC00\uDFFF";
        List<String> words = List.of(
                "one",
                "twenty",
                "hundred",
                "point",
                "and",
                "a",
                "half",
                "double",
                "oh",
                "minus",
                "dollars",
                "per",
                "cent",
                "percent",
                "first",
                "millionth",
                "sixties",
                "mr",
                "won't",
                "hmm",
                "colour");
        for (int n = 0; n < 5000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = rnd.nextInt(12); i > 0; i--) {
                if (rnd.nextBoolean())
                    sb.append(words.get(rnd.nextInt(words.size()))).append(' ');
                else sb.append(pieces.charAt(rnd.nextInt(pieces.length())));
            }
            String text = sb.toString();
            String out = normalizer.normalize(text);
            assertThat(out).as(text).doesNotContain("  ").isEqualTo(out.strip());
        }
    }

    @Test
    void readsNumbersBeyondLongRange() {
        assertThat(normalizer.normalize("ten decillion")).isEqualTo("1" + "0".repeat(34));
        assertThat(normalizer.normalize("nine hundred ninety nine decillion nine hundred ninety nine nonillion"))
                .isEqualTo("999999" + "0".repeat(30));
    }

    @Test
    void normalisesThePocketsphinxReferencesAsBothSidesWouldBe() throws IOException {
        List<String> librivox = references(POCKETSPHINX.resolve("librivox/transcription"));
        List<String> cards = references(POCKETSPHINX.resolve("cards/cards.transcription"));
        assertThat(librivox).hasSize(5);
        assertThat(normalizer.normalize(librivox.getFirst())).startsWith("and mister john dashwood had then leisure");
        // numbers become digits on the reference side just as they will on the hypothesis side
        assertThat(cards)
                .extracting(normalizer::normalize)
                .containsExactly(
                        "10 of clubs", "4 queen of clubs", "7 of clubs", "55", "8 of spades 4 of clubs 7 of hearts");
        assertThat(normalizer.normalize("10 of Clubs.")).isEqualTo(normalizer.normalize(cards.getFirst()));
    }

    /** The words of {@code <s> words </s> (id)} lines. */
    private static List<String> references(Path file) throws IOException {
        if (!Files.exists(file))
            throw new IllegalStateException(file + " is missing: install Debian's pocketsphinx-testdata");
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) continue;
            out.add(line.replaceFirst("\\s*\\([^)]*\\)\\s*$", "")
                    .replace("<s>", "")
                    .replace("</s>", "")
                    .strip());
        }
        return out;
    }

    @Test
    void oneInstanceServesManyThreadsAlike() throws Exception {
        List<Golden> cases = golden();
        List<String> expected =
                cases.stream().map(g -> normalizer.normalize(g.input())).toList();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<List<String>>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++)
                runs.add(pool.submit(() ->
                        cases.stream().map(g -> normalizer.normalize(g.input())).toList()));
            for (Future<List<String>> run : runs) assertThat(run.get()).isEqualTo(expected);
        }
    }
}
