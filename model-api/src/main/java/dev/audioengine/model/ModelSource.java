package dev.audioengine.model;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/** Where a model file can be fetched from; a file lists its sources in the order they are tried. */
public sealed interface ModelSource {
    /**
     * One line for messages ("npm package @ricky0123/vad-web@0.0.31, dist/silero_vad_v5.onnx").
     *
     * @return where the file comes from, as a person would look for it
     */
    String describe();

    /**
     * A file inside an npm package, fetched with the user's own npm client ({@code npm pack}).
     *
     * @param spec  the package and exact version ({@code @ricky0123/vad-web@0.0.31})
     * @param entry the path inside the tarball ({@code package/dist/silero_vad_v5.onnx})
     */
    record Npm(String spec, String entry) implements ModelSource {
        /**
         * Checks that both parts are given.
         *
         * @param spec the package and exact version
         * @param entry the path inside the tarball, starting {@code package/}
         * @throws NullPointerException if either is null
         */
        public Npm {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(entry, "entry");
        }

        @Override
        public String describe() {
            return "npm package " + spec + ", " + entry.replaceFirst("^package/", "");
        }
    }

    /**
     * A file served over HTTPS (a Hugging Face repository's resolve URL, say). Plain http is accepted for loopback
     * hosts only, which is what tests use; the sha256 check makes the transport's integrity irrelevant, not its privacy.
     *
     * @param url the file's URL; redirects are followed, and an interrupted download resumes with a range request
     */
    record Https(URI url) implements ModelSource {
        /**
         * Checks the scheme.
         *
         * @param url an https URL, or http to localhost, 127.x or [::1]
         * @throws IllegalArgumentException if the URL is neither
         * @throws NullPointerException if the URL is null
         */
        public Https {
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            boolean loopback = "http".equals(scheme)
                    && url.getHost() != null
                    && (url.getHost().equals("localhost")
                            || url.getHost().startsWith("127.")
                            || url.getHost().equals("[::1]"));
            if (!scheme.equals("https") && !loopback) {
                throw new IllegalArgumentException("model downloads use https, got " + url);
            }
        }

        @Override
        public String describe() {
            return url.toString();
        }
    }
}
