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

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }
}
