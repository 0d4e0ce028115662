package dev.audioengine.model.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file's sha256, hashed or (for a file a model cache verified) read from the cache's stamp. */
class FileHashTest {
    private static String reference(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void hashesAFileOfAnOddSize(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[(1 << 16) * 3 + 17]; // several reads, the last one short
        new SplittableRandom().nextBytes(bytes);
        Path f = Files.write(dir.resolve("m.onnx"), bytes);
        assertThat(FileHash.sha256(f)).isEqualTo(reference(bytes));
        assertThat(FileHash.sha256(f, "0".repeat(64))).as("no stamp: hashed").isEqualTo(reference(bytes));
    }

    /**
     * A stamp says the cache checked the file: its hash is then taken from the stamp, without reading the file (a
     * stamp recorded under another hash proves it is not read), and only while the file is as the stamp saw it.
     */
    @Test
    void aStampedFileIsNotReadAgainUntilItChanges(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[1000];
        new SplittableRandom().nextBytes(bytes);
        Path f = Files.write(dir.resolve("m.onnx"), bytes);
        String stamped = "ab".repeat(32);
        VerifiedStamp.record(dir, f, stamped);
        assertThat(FileHash.sha256(f, "cd".repeat(32), stamped)).isEqualTo(stamped);
        assertThat(FileHash.sha256(f, "cd".repeat(32)))
                .as("the stamp's hash not among those known")
                .isEqualTo(reference(bytes));
        Files.setLastModifiedTime(
                f, FileTime.fromMillis(Files.getLastModifiedTime(f).toMillis() + 5000));
        assertThat(FileHash.sha256(f, stamped)).as("a touched file").isEqualTo(reference(bytes));
    }
}
