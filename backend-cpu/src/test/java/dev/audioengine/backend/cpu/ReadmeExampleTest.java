package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's embedding example compiles (it is this file) and runs, and the README shows exactly it. */
class ReadmeExampleTest {
    private static final String START = "// README-EXAMPLE-START", END = "// README-EXAMPLE-END";

    static void example() {
        // README-EXAMPLE-START
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                HostTensor weight = HostTensor.ofFloats(Shape.of(2, 1, 3), 1, 0, -1, 0.25f, 0.5f, 0.25f)) {
            // A graph is built once per input shape: here a 2-filter conv1d followed by ReLU.
            GraphBuilder g = new GraphBuilder();
            Tensor audio = g.input("audio", Shape.of(1, 1, 8));
            Tensor y = g.relu(g.conv1d(audio, g.constant(weight), null, 1, 1, 1, 1))
                    .named("features");
            try (CompiledGraph graph = engine.compile(g.build(y));
                    HostTensor x = HostTensor.ofFloats(Shape.of(1, 1, 8), 0, 1, 2, 3, 3, 2, 1, 0);
                    CompiledGraph.Outputs out = graph.run(Map.of("audio", x))) {
                System.out.println(
                        out.get("features").shape() + " on " + engine.device().name());
                System.out.println(graph.summary().describe());
            }
        }
        // README-EXAMPLE-END
    }

    @Test
    void readmeShowsThisExampleVerbatim() throws IOException {
        Path readme = Path.of(System.getProperty("user.dir")).getParent().resolve("README.md");
        String fromReadme = between(Files.readString(readme));
        String fromHere =
                between(Files.readString(Path.of("src/test/java/dev/audioengine/backend/cpu/ReadmeExampleTest.java")));
        assertThat(normalize(fromReadme)).isEqualTo(normalize(fromHere));
    }

    @Test
    void exampleRunsAndComputesTheConvolution() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            example();
        } finally {
            System.setOut(old);
        }
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("[1, 2, 8] on").contains("nodes {CPU=2}");
    }

    private static String between(String text) {
        // the markers as comment lines, not the string constants above
        int s = text.indexOf(START + "\n"), e = text.indexOf(END + "\n");
        assertThat(s).as("markers present").isGreaterThanOrEqualTo(0);
        assertThat(e).isGreaterThan(s);
        return text.substring(s + START.length(), e);
    }

    private static String normalize(String code) {
        return code.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
