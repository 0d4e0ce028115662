package dev.audioengine.model.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** sha256 of files, the check every cached model file passes. */
public final class FileHash {
    private FileHash() {}

    /**
     * Lower-case hex sha256 of the file's bytes.
     *
     * @param p a regular file; read whole, so this costs a pass over it (ModelStore remembers verified files)
     * @return 64 lower-case hex digits, as {@link dev.audioengine.model.ModelFile#sha256()} spells them
     * @throws IOException if the file cannot be read
     */
    public static String sha256(Path p) throws IOException {
        MessageDigest md = newDigest();
        try (InputStream in = Files.newInputStream(p)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * The file's sha256 where it is one of {@code known} and a model cache has checked it: read from the stamp the
     * cache keeps beside the file ({@code <folder>/.verified/}, written when the store verified it; a stat, not a
     * read, and missed by any change to the file); otherwise hashed, as {@link #sha256(Path)}. For a model that
     * names its version by its file's hash on every load (Silero VAD: the 2.3 MB hash was 3 % of a cold
     * transcription's time, the interpreter running SHA-256 before the JIT's intrinsic).
     */
    public static String sha256(Path p, String... known) throws IOException {
        Path folder = p.toAbsolutePath().getParent();
        if (folder != null) for (String sha256 : known) if (VerifiedStamp.matches(folder, p, sha256)) return sha256;
        return sha256(p);
    }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }
}
