package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.cli.testkit.MiniJson;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server image scripts/image builds with Jib (app-cli/target/audioengine-server-image.tar, an OCI image layout in a
 * tar), unpacked: the entry point and default arguments, a non-root user, the model cache volume and its variable, port
 * 8080, every layer present with the digest the manifest names, the jlinked runtime with the engine, server, CPU backend
 * and model modules and without the tools, the shared libraries and espeak-ng data it loads, and the user in
 * /etc/passwd. Building the image takes the whole distribution and Jib, so this test does not: without the tarball
 * (any run but scripts/image's, which runs it after building) it is skipped, and says so.
 */
class ServerImageIT {
    static final List<String> ENTRYPOINT =
            List.of("/opt/audioengine/bin/java", "-m", "dev.audioengine.cli/dev.audioengine.cli.Main");
    static final List<String> ARGS = List.of("serve", "--host", "0.0.0.0", "--preload");

    @TempDir
    static Path unpacked;

    static Path layout;
    static Map<String, Object> config;
    static List<Path> layers = new ArrayList<>();
    /** Every entry of every layer, as "mode path" lines of tar -tv, paths without a leading "./". */
    static List<String> listing = new ArrayList<>();

    static Path tarball() {
        String property = System.getProperty("audioengine.image.tar");
        return property != null && !property.isBlank()
                ? Path.of(property)
                : Dist.repoRoot().resolve("app-cli/target/audioengine-server-image.tar");
    }

    /** Why every test is skipped, or null when the tarball is there. */
    static String skipped;

    @BeforeAll
    static void unpack() throws Exception {
        Path tar = tarball();
        if (!Files.isRegularFile(tar)) {
            // each test is skipped with this reason (an abort here would vanish from failsafe's report)
            skipped = "skipped: no server image at " + tar + " (scripts/image builds it and then runs this test)";
            System.err.println("ServerImageIT " + skipped);
            return;
        }
        layout = unpacked.resolve("layout");
        Files.createDirectories(layout);
        Dist.Result untar = Dist.run(List.of("tar", "-xf", tar.toString(), "-C", layout.toString()), layout, Map.of());
        assertThat(untar.exit()).as(untar.toString()).isZero();

        assertThat(Files.readString(layout.resolve("oci-layout"))).contains("\"imageLayoutVersion\"");
        Map<String, Object> index = json(Files.readString(layout.resolve("index.json")));
        List<Object> manifests = list(index.get("manifests"));
        assertThat(manifests).hasSize(1);
        Map<String, Object> entry = map(manifests.getFirst());
        assertThat(map(entry.get("annotations")).get("org.opencontainers.image.ref.name"))
                .asString()
                .startsWith("audioengine-server:");
        Map<String, Object> manifest = json(Files.readString(blob((String) entry.get("digest"))));
        config = json(Files.readString(blob((String) map(manifest.get("config")).get("digest"))));
        for (Object layer : list(manifest.get("layers"))) {
            Map<String, Object> l = map(layer);
            assertThat((String) l.get("mediaType")).startsWith("application/vnd.oci.image.layer.v1.tar");
            Path file = blob((String) l.get("digest"));
            assertThat(Files.size(file)).isEqualTo(((Number) l.get("size")).longValue());
            layers.add(file);
            Dist.Result list = Dist.run(List.of("tar", "-tvzf", file.toString()), layout, Map.of());
            assertThat(list.exit()).as(list.toString()).isZero();
            list.out().lines().forEach(line -> {
                String[] f = line.trim().split("\\s+");
                String path = f[f.length - 1].replaceFirst("^\\./", "");
                if (line.startsWith("l") || line.startsWith("h")) path = f[f.length - 3];
                listing.add(f[0] + " " + path);
            });
        }
    }

    @BeforeEach
    void present() {
        Assumptions.assumeTrue(skipped == null, skipped);
    }

    /** The blob a digest names, checked against it. */
    static Path blob(String digest) throws Exception {
        assertThat(digest).startsWith("sha256:");
        Path file = layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
        assertThat(file).isRegularFile();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        assertThat("sha256:" + HexFormat.of().formatHex(sha.digest()))
                .as("the blob's content")
                .isEqualTo(digest);
        return file;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        assertThat(o).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    static Map<String, Object> json(String text) {
        return map(MiniJson.parse(text));
    }

    static Map<String, Object> containerConfig() {
        return map(config.get("config"));
    }

    /** A file of the image (the last layer that has it), extracted. */
    static String read(String path) throws Exception {
        for (Path layer : layers.reversed()) {
            Path out = unpacked.resolve("files").resolve(layer.getFileName().toString());
            Files.createDirectories(out);
            Dist.Result r =
                    Dist.run(List.of("tar", "-xzf", layer.toString(), "-C", out.toString(), path), out, Map.of());
            if (r.exit() == 0 && Files.isRegularFile(out.resolve(path))) return Files.readString(out.resolve(path));
        }
        throw new AssertionError(path + " is in no layer");
    }

    static String mode(String path) {
        return listing.stream()
                .filter(l -> l.endsWith(" " + path) || l.endsWith(" " + path + "/"))
                .map(l -> l.substring(0, l.indexOf(' ')))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " is in no layer"));
    }

    @Test
    void theEntryPointServesOnEveryInterfaceAfterLoadingTheModels() {
        assertThat(config).containsEntry("os", "linux");
        assertThat(list(containerConfig().get("Entrypoint"))).containsExactlyElementsOf(ENTRYPOINT);
        assertThat(list(containerConfig().get("Cmd"))).containsExactlyElementsOf(ARGS);
        assertThat(mode("opt/audioengine/bin/java")).startsWith("-rwxr-xr-x");
    }

    @Test
    void itRunsAsANonRootUserThatPasswdNames() throws Exception {
        String user = (String) containerConfig().get("User");
        assertThat(user).matches("\\d+:\\d+");
        String uid = user.substring(0, user.indexOf(':'));
        assertThat(Integer.parseInt(uid)).as("not root").isPositive();
        assertThat(read("etc/passwd").lines())
                .anySatisfy(line -> assertThat(line).startsWith("audioengine:x:" + uid + ":"));
        assertThat(read("etc/group")).contains("audioengine:x:" + user.substring(user.indexOf(':') + 1) + ":");
    }

    @Test
    void theModelCacheIsTheVolumeAndThePortIsExposed() {
        assertThat(map(containerConfig().get("Volumes"))).containsOnlyKeys("/models");
        assertThat(map(containerConfig().get("ExposedPorts"))).containsOnlyKeys("8080/tcp");
        assertThat(list(containerConfig().get("Env"))).contains("AUDIOENGINE_CACHE=/models");
        assertThat(mode("models"))
                .as("writable by the user, whom Jib cannot make its owner")
                .startsWith("drwxrwxrwx");
        assertThat(mode("tmp")).startsWith("drwxrwxrwx");
    }

    @Test
    void everyLayerIsPresentAndListed() {
        Map<String, Object> rootfs = map(config.get("rootfs"));
        assertThat(list(rootfs.get("diff_ids"))).hasSameSizeAs(layers);
        assertThat(layers).isNotEmpty();
        assertThat(listing)
                .as("no models baked in")
                .noneMatch(l -> l.endsWith(".onnx") || l.contains(" models/") && !l.endsWith(" models/"));
    }

    @Test
    void theRuntimeLinksTheServerAndNotTheTools() throws Exception {
        assertThat(listing).anyMatch(l -> l.endsWith(" opt/audioengine/lib/modules"));
        String release = read("opt/audioengine/release");
        String line = release.lines()
                .filter(l -> l.startsWith("MODULES="))
                .findFirst()
                .orElseThrow();
        List<String> modules = Arrays.asList(
                line.substring("MODULES=".length()).replace("\"", "").split(" "));
        assertThat(modules)
                .contains(
                        "java.base",
                        "jdk.incubator.vector",
                        "dev.audioengine.api",
                        "dev.audioengine.model",
                        "dev.audioengine.cli",
                        "dev.audioengine.server",
                        "dev.audioengine.backend.cpu",
                        "dev.audioengine.models",
                        "dev.audioengine.audio")
                .doesNotContain(
                        "dev.audioengine.tools",
                        "dev.audioengine.bench",
                        "dev.audioengine.conformance",
                        "dev.audioengine.reference",
                        "dev.audioengine.evaluation");
        assertThat(release).doesNotContain("jdk.compiler").doesNotContain("jdk.jshell");
        assertThat(listing).noneMatch(l -> l.endsWith(".jar") && l.contains("audioengine-"));
    }

    @Test
    void theSharedLibrariesTheEngineLoadsAreThere() {
        String loader = listing.stream()
                .filter(l -> l.matches(".* lib(64)?/ld-linux[^/]*\\.so\\.\\d+"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dynamic loader in " + listing));
        assertThat(loader).startsWith("-rwx");
        for (String so : List.of("libc.so.6", "libm.so.6", "libsndfile.so.1", "libespeak-ng.so.1"))
            assertThat(listing).as(so).anyMatch(l -> l.endsWith("/" + so));
        assertThat(listing).anyMatch(l -> l.endsWith("espeak-ng-data/phontab"));
        assertThat(listing).anyMatch(l -> l.endsWith("espeak-ng-data/en_dict"));
    }
}
