package dev.audioengine.tools.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** StagingLayoutCheck on small synthetic staging directories: a valid one, and one of each kind of fault. */
class StagingLayoutCheckTest {
    private static final String META = """
              <name>x</name>
              <description>d</description>
              <url>https://example.org</url>
              <licenses><license><name>Apache-2.0</name></license></licenses>
              <developers><developer><id>a</id></developer></developers>
              <scm><url>https://example.org/scm</url><connection>scm:git:x</connection></scm>
              <issueManagement><url>https://example.org/issues</url></issueManagement>
            """;

    /** A parent POM with the metadata, a jar module inheriting it, and a BOM (POM only). */
    private static Path good(Path root) throws Exception {
        pom(root, "parent", "1.0", "<packaging>pom</packaging>\n" + META);
        pom(root, "lib", "1.0", """
                  <parent><groupId>g.h</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
                  <dependencies><dependency><groupId>o</groupId><artifactId>d</artifactId><version>2.0</version>\
                </dependency></dependencies>
                """);
        for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
            file(root.resolve("g/h/lib/1.0/lib-1.0" + suffix), "jar " + suffix);
        }
        pom(root, "bom", "1.0", "<packaging>pom</packaging>\n" + META);
        file(root.resolve("g/h/lib/maven-metadata.xml"), "<metadata/>");
        return root;
    }

    private static void pom(Path root, String artifact, String version, String body) throws Exception {
        file(
                root.resolve("g/h/" + artifact + "/" + version + "/" + artifact + "-" + version + ".pom"),
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                        + "<groupId>g.h</groupId><artifactId>" + artifact + "</artifactId><version>" + version
                        + "</version>\n" + body + "</project>\n");
    }

    private static void file(Path f, String content) throws Exception {
        Files.createDirectories(f.getParent());
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Files.write(f, bytes);
        Files.writeString(f.resolveSibling(f.getFileName() + ".md5"), StagingLayoutCheck.digest("MD5", bytes));
        Files.writeString(f.resolveSibling(f.getFileName() + ".sha1"), StagingLayoutCheck.digest("SHA-1", bytes));
        Files.writeString(f.resolveSibling(f.getFileName() + ".sha256"), StagingLayoutCheck.digest("SHA-256", bytes));
    }

    private static List<String> check(Path root) throws Exception {
        return StagingLayoutCheck.check(root, Set.of("parent", "lib", "bom"));
    }

    @Test
    void aCompleteLayoutIsValid(@TempDir Path dir) throws Exception {
        assertThat(check(good(dir))).isEmpty();
    }

    @Test
    void aMissingSourcesOrJavadocJarIsReported(@TempDir Path dir) throws Exception {
        good(dir);
        Files.delete(dir.resolve("g/h/lib/1.0/lib-1.0-javadoc.jar"));
        assertThat(check(dir)).anyMatch(p -> p.contains("missing lib-1.0-javadoc.jar"));
    }

    @Test
    void aMissingArtifactIsReported(@TempDir Path dir) throws Exception {
        good(dir);
        assertThat(StagingLayoutCheck.check(dir, Set.of("lib", "server")))
                .contains("server: not in the staging directory");
    }

    @Test
    void aChecksumThatDoesNotMatchOrIsMissingIsReported(@TempDir Path dir) throws Exception {
        good(dir);
        Files.writeString(dir.resolve("g/h/lib/1.0/lib-1.0.jar.sha1"), "0".repeat(40));
        Files.writeString(dir.resolve("g/h/lib/1.0/lib-1.0.jar.sha256"), "1".repeat(64));
        Files.delete(dir.resolve("g/h/lib/1.0/lib-1.0-sources.jar.md5"));
        assertThat(check(dir))
                .anyMatch(p -> p.contains("lib-1.0.jar: .sha1 does not match"))
                .anyMatch(p -> p.contains("lib-1.0.jar: .sha256 does not match"))
                .anyMatch(p -> p.contains("lib-1.0-sources.jar: no .md5"));
    }

    @Test
    void aSnapshotVersionOrDependencyIsReported(@TempDir Path dir) throws Exception {
        good(dir);
        pom(
                dir,
                "other",
                "1.0",
                "<packaging>pom</packaging>\n" + META
                        + "<dependencies><dependency><groupId>o</groupId><artifactId>d</artifactId>"
                        + "<version>2.0-SNAPSHOT</version></dependency></dependencies>\n");
        pom(dir, "snap", "1.1-SNAPSHOT", "<packaging>pom</packaging>\n" + META);
        assertThat(check(dir))
                .contains("other:1.0: the POM names a SNAPSHOT version")
                .contains("snap:1.1-SNAPSHOT: a SNAPSHOT version");
    }

    @Test
    void missingMetadataIsReportedUnlessTheParentHasIt(@TempDir Path dir) throws Exception {
        good(dir);
        pom(dir, "bare", "1.0", "<packaging>pom</packaging>\n<name>bare</name>\n");
        assertThat(check(dir))
                .contains(
                        "bare:1.0: the POM has no description",
                        "bare:1.0: the POM has no licenses/license/name",
                        "bare:1.0: the POM has no scm/url",
                        "bare:1.0: the POM has no developers/developer",
                        "bare:1.0: the POM has no issueManagement/url")
                .noneMatch(p -> p.startsWith("lib:"));
    }

    @Test
    void signaturesAreAllOrNothing(@TempDir Path dir) throws Exception {
        good(dir);
        Files.writeString(dir.resolve("g/h/lib/1.0/lib-1.0.jar.asc"), "sig");
        assertThat(check(dir))
                .anyMatch(p -> p.contains("lib-1.0.pom: not signed"))
                .noneMatch(p -> p.contains("maven-metadata.xml"));
    }
}
