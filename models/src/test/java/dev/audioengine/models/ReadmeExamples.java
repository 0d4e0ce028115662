package dev.audioengine.models;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the README example tests share: the README shows a test's example verbatim (the code between
 * {@code // README-NAME-START} and {@code // README-NAME-END}, in both files, indentation and blank lines aside), and
 * what an example prints.
 */
final class ReadmeExamples {
    private ReadmeExamples() {}

    /** The example name's block in README.md is the one in {@code test}'s source. */
    static void assertReadmeShows(String name, Class<?> test) throws IOException {
        Path readme = Path.of(System.getProperty("user.dir")).getParent().resolve("README.md");
        Path source = Path.of("src/test/java", test.getName().replace('.', '/') + ".java");
        assertThat(normalize(between(Files.readString(readme), name))).as("README.md's %s example", name)
                .isEqualTo(normalize(between(Files.readString(source), name)));
    }

    interface Example {
        void run() throws IOException;
    }

    /** The lines {@code example} prints to System.out. */
    static List<String> printed(Example example) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            example.run();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static String between(String text, String name) {
        String start = "// README-" + name + "-START", end = "// README-" + name + "-END";
        int s = text.indexOf(start + "\n"), e = text.indexOf(end + "\n");
        assertThat(s).as("marker %s present", start).isGreaterThanOrEqualTo(0);
        assertThat(e).as("marker %s after %s", end, start).isGreaterThan(s);
        return text.substring(s + start.length(), e);
    }

    private static String normalize(String code) {
        return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
