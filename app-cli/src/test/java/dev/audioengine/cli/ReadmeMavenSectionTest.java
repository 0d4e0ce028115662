package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README shows exactly the consumer pom that scripts/consumer-check builds (MavenConsumerIT), and names the BOM's
 * version; the BOM manages every published module.
 */
class ReadmeMavenSectionTest {

    @Test
    void theReadmeShowsTheTestedConsumerPom() throws Exception {
        Path root = Dist.repoRoot();
        String readme = Files.readString(root.resolve("README.md"));
        String pom = Files.readString(root.resolve("docs/examples/consumer/pom.xml"));
        assertThat(readme).contains("```xml\n" + pom + "```\n");
    }

    @Test
    void theConsumerImportsTheBomOfThisVersion() throws Exception {
        Path root = Dist.repoRoot();
        String version = Files.readString(root.resolve("pom.xml"))
                .replaceAll("(?s).*?<artifactId>audioengine-parent</artifactId>\\s*<version>([^<]+)</version>.*", "$1");
        assertThat(Files.readString(root.resolve("bom/pom.xml")))
                .contains("<artifactId>audioengine-bom</artifactId>\n  <version>" + version + "</version>");
        assertThat(Files.readString(root.resolve("docs/examples/consumer/pom.xml")))
                .contains("<artifactId>audioengine-bom</artifactId>\n        <version>" + version + "</version>");
    }

    @Test
    void theBomManagesEveryPublishedModule() throws Exception {
        Path root = Dist.repoRoot();
        String bom = Files.readString(root.resolve("bom/pom.xml"));
        var modules = java.util.regex.Pattern.compile("<module>([^<]+)</module>")
                .matcher(Files.readString(root.resolve("pom.xml")))
                .results()
                .map(m -> m.group(1))
                .filter(m -> !m.equals("bom"))
                .toList();
        assertThat(modules).contains("engine-api", "backend-cpu", "models", "app-cli");
        for (String module : modules) {
            String artifact = Files.readString(root.resolve(module).resolve("pom.xml"))
                    .replaceAll("(?s).*?</parent>\\s*<artifactId>([^<]+)</artifactId>.*", "$1");
            assertThat(artifact).as(module).startsWith("audioengine-");
            // the test, benchmark and tools modules are not published, so a BOM naming them would point at nothing
            boolean published = !Files.readString(root.resolve(module).resolve("pom.xml"))
                    .contains("<audioengine.unpublished>true</audioengine.unpublished>");
            if (published) {
                assertThat(bom)
                        .as("bom/pom.xml manages %s", artifact)
                        .contains("<artifactId>" + artifact + "</artifactId>");
            } else {
                assertThat(bom)
                        .as("bom/pom.xml leaves out the unpublished %s", artifact)
                        .doesNotContain("<artifactId>" + artifact + "</artifactId>");
            }
        }
    }
}
