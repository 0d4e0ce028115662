package dev.audioengine.tools.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a Maven staging directory (what {@code mvn -Prelease deploy -DaltDeploymentRepository=local::file:DIR} wrote)
 * the way Central's validation would: every artifact has its POM, and unless the POM says {@code pom} packaging its
 * jar, sources jar and javadoc jar; every file has {@code .md5} and {@code .sha1} checksums that match it (and
 * {@code .sha256}/{@code .sha512} ones match where present; {@code .asc} signatures on all files or none); no version
 * anywhere is a SNAPSHOT; every POM has (itself or through its parent in the staging directory) name, description,
 * url, a licence, developers, scm and issue management.
 * <p>
 * Self-contained (JDK only) so scripts/release runs it as a source file:
 * {@code java StagingLayoutCheck.java DIR [--expect=artifactId,...]}; exit 0 when valid, 1 with one line per problem.
 * Its unit test is {@code StagingLayoutCheckTest}.
 */
public final class StagingLayoutCheck {
    private static final List<String> CHECKSUMS = List.of("md5", "sha1", "sha256", "sha512");
    private static final Map<String, String> ALGORITHMS =
            Map.of("md5", "MD5", "sha1", "SHA-1", "sha256", "SHA-256", "sha512", "SHA-512");
    private static final List<String> REQUIRED = List.of(
            "name",
            "description",
            "url",
            "licenses/license/name",
            "developers/developer",
            "scm/url",
            "scm/connection",
            "issueManagement/url");

    private StagingLayoutCheck() {}

    public static void main(String[] args) throws Exception {
        Path root = null;
        Set<String> expected = Set.of();
        for (String a : args) {
            if (a.startsWith("--expect="))
                expected = Set.of(a.substring("--expect=".length()).split(","));
            else root = Path.of(a);
        }
        if (root == null) {
            System.err.println("usage: StagingLayoutCheck DIR [--expect=artifactId,...]");
            System.exit(2);
        }
        List<String> problems = check(root, expected);
        if (problems.isEmpty()) {
            System.out.println("staging layout valid: " + root);
            System.exit(0);
        }
        problems.forEach(p -> System.out.println("staging: " + p));
        System.exit(1);
    }

    /** The problems found under {@code root}; empty when the layout is valid. */
    public static List<String> check(Path root, Set<String> expectedArtifacts) throws Exception {
        List<String> problems = new ArrayList<>();
        if (!Files.isDirectory(root)) return List.of(root + " is not a directory");
        List<Path> poms;
        try (Stream<Path> s = Files.walk(root)) {
            poms = s.filter(p -> p.toString().endsWith(".pom")).sorted().toList();
        }
        if (poms.isEmpty()) problems.add("no POM under " + root);
        Set<String> seen = new TreeSet<>();
        for (Path pom : poms) {
            Path versionDir = pom.getParent();
            String version = versionDir.getFileName().toString();
            String artifactId = versionDir.getParent().getFileName().toString();
            seen.add(artifactId);
            String base = artifactId + "-" + version;
            String where = artifactId + ":" + version;
            if (!pom.getFileName().toString().equals(base + ".pom")) {
                problems.add(where + ": unexpected POM name " + pom.getFileName());
                continue;
            }
            if (version.contains("SNAPSHOT")) problems.add(where + ": a SNAPSHOT version");
            String text = Files.readString(pom);
            if (text.contains("SNAPSHOT")) problems.add(where + ": the POM names a SNAPSHOT version");
            Document doc = parse(pom);
            String packaging = text(doc.getDocumentElement(), "packaging");
            if (packaging == null) packaging = "jar";
            if (!packaging.equals("pom")) {
                for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
                    if (!Files.isRegularFile(versionDir.resolve(base + suffix))) {
                        problems.add(where + ": missing " + base + suffix);
                    }
                }
            }
            for (String element : REQUIRED) {
                if (inherited(root, doc, element, 0) == null) problems.add(where + ": the POM has no " + element);
            }
        }
        for (String a : expectedArtifacts) {
            if (!seen.contains(a)) problems.add(a + ": not in the staging directory");
        }
        checkFiles(root, problems);
        return problems;
    }

    /** Checksums (and signatures) of every file. */
    private static void checkFiles(Path root, List<String> problems) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        boolean signed = files.stream().anyMatch(f -> f.toString().endsWith(".asc"));
        for (Path f : files) {
            String name = f.getFileName().toString();
            String ext = name.substring(name.lastIndexOf('.') + 1);
            if (CHECKSUMS.contains(ext)) {
                Path of = f.resolveSibling(name.substring(0, name.length() - ext.length() - 1));
                if (!Files.isRegularFile(of)) problems.add(root.relativize(f) + ": a checksum of no file");
                continue;
            }
            if (ext.equals("asc")) continue;
            // Central wants every artifact signed; maven-metadata.xml is the repository's own file, never signed
            if (signed && !name.startsWith("maven-metadata") && !Files.isRegularFile(f.resolveSibling(name + ".asc"))) {
                problems.add(root.relativize(f) + ": not signed (no .asc) while other files are");
            }
            byte[] bytes = Files.readAllBytes(f);
            for (String c : CHECKSUMS) {
                Path sum = f.resolveSibling(name + "." + c);
                boolean required = c.equals("md5") || c.equals("sha1");
                if (!Files.isRegularFile(sum)) {
                    if (required) problems.add(root.relativize(f) + ": no ." + c);
                    continue;
                }
                String recorded = Files.readString(sum).trim().split("\\s+")[0].toLowerCase();
                if (!recorded.equals(digest(ALGORITHMS.get(c), bytes))) {
                    problems.add(root.relativize(f) + ": ." + c + " does not match the file");
                }
            }
        }
    }

    /** The element at {@code path}, from this POM or its parent's in the staging directory (Maven inherits them). */
    private static String inherited(Path root, Document doc, String path, int depth) throws Exception {
        String v = text(doc.getDocumentElement(), path);
        if (v != null || depth > 8) return v;
        Element parent = child(doc.getDocumentElement(), "parent");
        if (parent == null) return null;
        String g = text(parent, "groupId"), a = text(parent, "artifactId"), ver = text(parent, "version");
        if (g == null || a == null || ver == null) return null;
        Path pom = root.resolve(g.replace('.', '/')).resolve(a).resolve(ver).resolve(a + "-" + ver + ".pom");
        if (!Files.isRegularFile(pom)) return null;
        return inherited(root, parse(pom), path, depth + 1);
    }

    private static String text(Element e, String path) {
        Element cur = e;
        for (String step : path.split("/")) {
            cur = child(cur, step);
            if (cur == null) return null;
        }
        String t = cur.getTextContent().trim();
        return t.isEmpty() ? null : t;
    }

    private static Element child(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && name.equals(c.getLocalName() != null ? c.getLocalName() : c.getTagName())) {
                return c;
            }
        }
        return null;
    }

    private static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(pom.toFile());
    }

    static String digest(String algorithm, byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
