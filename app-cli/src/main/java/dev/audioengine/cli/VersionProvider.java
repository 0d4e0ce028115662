package dev.audioengine.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** --version: the project version (written into version.properties by the build) and the Java runtime. */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {
            "audioengine " + projectVersion(),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ", "
                    + System.getProperty("java.home") + ")"
        };
    }

    static String projectVersion() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in == null) return "(unknown version: version.properties missing from the build)";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "(unknown version)");
        } catch (IOException e) {
            return "(unknown version: " + e.getMessage() + ")";
        }
    }
}
