package dev.audioengine.model;

import java.net.URI;
import java.util.List;
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
    /**
     * A file in a Hugging Face hub repository, pinned when it is fetched rather than when the variant is written: the
     * store first asks the hub's API ({@code GET /api/models/REPO/revision/REVISION?blobs=true}) for the commit the
     * revision stands for and the file's sha256 and size (its LFS object id; the git blob id for a small file kept in
     * git itself), then downloads {@code /REPO/resolve/COMMIT/PATH} over HTTPS and keeps it only when its bytes have
     * that hash. The hub is {@code https://huggingface.co}, or the mirror {@code HF_ENDPOINT} names.
     *
     * @param repo     the repository id ({@code openai/whisper-base})
     * @param revision the branch, tag or commit the variant follows ({@code main}); the commit it stands for at the
     *     first pull is what the cache records
     * @param path     the file's path inside the repository ({@code model.safetensors})
     */
    record HuggingFace(String repo, String revision, String path) implements ModelSource {
        /**
         * Checks the parts.
         *
         * @param repo an {@code owner/name} id
         * @param revision a branch, tag or commit, not blank
         * @param path a relative path inside the repository, no {@code ..} element
         * @throws IllegalArgumentException if the repository is not {@code owner/name}, the revision is blank or the
         *     path is absolute or climbs out of the repository
         * @throws NullPointerException if any part is null
         */
        public HuggingFace {
            Objects.requireNonNull(repo, "repo");
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(path, "path");
            if (!repo.matches("[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*"))
                throw new IllegalArgumentException("a Hugging Face repository id is owner/name, got '" + repo + "'");
            if (revision.isBlank()) throw new IllegalArgumentException(repo + ": blank revision");
            if (path.isBlank()
                    || path.startsWith("/")
                    || List.of(path.split("/")).contains(".."))
                throw new IllegalArgumentException(repo + ": not a path inside the repository: '" + path + "'");
        }

        @Override
        public String describe() {
            // the public hub's URL, so that a person without the engine's network can fetch the file by hand
            return "Hugging Face " + repo + "@" + revision + ", " + path + " (https://huggingface.co/" + repo
                    + "/resolve/" + revision + "/" + path + ")";
        }
    }
}
