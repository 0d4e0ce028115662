package dev.audioengine.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the README example tests share: a README example is a whole compilation unit (imports, a class with a main),
 * compiled here as the README shows it against the test class path and run, so a wrong import or a missing one fails
 * the build as it would fail a reader who pastes it.
 */
final class ReadmeExamples {
    private ReadmeExamples() {}

    /** The README's ```java block that declares {@code public class NAME}, exactly as written. */
    static String source(String className) throws IOException {
        String readme = Files.readString(
                Path.of(System.getProperty("user.dir")).getParent().resolve("README.md"));
        String declaration = "public class " + className + " {";
        for (int at = readme.indexOf("```java\n"); at >= 0; at = readme.indexOf("```java\n", at + 1)) {
            int end = readme.indexOf("\n```", at);
            String block = readme.substring(at + "```java\n".length(), end + 1);
            if (block.contains(declaration)) return block;
        }
        throw new AssertionError("README.md has no ```java block declaring " + declaration);
    }

    /** Compiles the README's example {@code className} into {@code dir} and runs its main with {@code args}. */
    static void run(String className, Path dir, String... args) throws Exception {
        Path src = Files.writeString(
                Files.createDirectories(dir.resolve("src")).resolve(className + ".java"), source(className));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        // java.util.spi.ToolProvider, not javax.tools: the tests compile inside this module, which does not read
        // java.compiler
        java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac")
                .orElseThrow(() -> new AssertionError("no javac in this JDK"));
        StringWriter messages = new StringWriter();
        int status;
        try (PrintWriter to = new PrintWriter(messages)) {
            status = javac.run(
                    to, to, "-encoding", "UTF-8", "-classpath", classPath(), "-d", classes.toString(), src.toString());
        }
        assertThat(status)
                .as("README.md's %s compiles as it stands:\n%s", className, messages)
                .isZero();
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, ReadmeExamples.class.getClassLoader())) {
            loader.loadClass(className).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    /** Surefire's test class path (java.class.path may be its booter jar only). */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    interface Example {
        void run() throws Exception;
    }

    /** The lines {@code example} prints to System.out. */
    static List<String> printed(Example example) throws Exception {
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
}
