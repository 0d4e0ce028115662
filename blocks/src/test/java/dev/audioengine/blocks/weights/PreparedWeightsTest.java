package dev.audioengine.blocks.weights;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prepared-weights cache: a second load is served from the mapped copy without parsing the source; a changed
 * source, another build, another weight type or a damaged copy is never used, and the copy is rebuilt.
 */
class PreparedWeightsTest {
    private static final String W = "layers.0.proj.weight", B = "layers.0.proj.bias";

    /** What a family reads: a weight in the session's type, a value in F32, an optional value that is absent. */
    private record Read(float[] f32, float[] weight, DType weightType, boolean hasBias) {}

    private static Read read(WeightStore store) {
        WeightScope s = store.scope();
        HostTensor w = s.weight(W);
        return new Read(s.tensor(W).toFloatArray(), w.toFloatArray(), w.dtype(), s.has(B));
    }

    private static Path source(Path dir, long seed) throws IOException {
        float[] v = new float[6 * 64];
        Random r = new Random(seed);
        for (int i = 0; i < v.length; i++) v[i] = (r.nextInt(64) - 32) * 0.125f; // exact in F16
        Path file = dir.resolve("m.safetensors");
        Files.write(file, SafetensorsScopeTest.safetensorsF16(W, 6, 64, v));
        return file;
    }

    private static Read fresh(Path file) throws IOException {
        try (WeightStore plain = WeightStore.open(file, DType.Q8_0)) {
            return read(plain);
        }
    }

    private static void assertSame(Read a, Read b) {
        assertThat(a.f32()).isEqualTo(b.f32());
        assertThat(a.weight()).isEqualTo(b.weight());
        assertThat(a.weightType()).isEqualTo(b.weightType());
        assertThat(a.hasBias()).isEqualTo(b.hasBias());
    }

    @Test
    void theSecondLoadIsServedFromTheCopyAloneWithTheSameValues(@TempDir Path dir) throws Exception {
        Path file = source(dir, 1);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        Read first;
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            first = read(store);
            assertThat(store.servedFromPrepared()).isFalse();
            store.keepPrepared();
        }
        assertThat(Files.list(cache.directory()).toList()).hasSize(1);
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            Read second = read(store);
            assertSame(second, first);
            assertSame(second, fresh(file));
            assertThat(store.servedFromPrepared()).isTrue();
            assertThat(store.sourceOpened())
                    .as("every lookup, the absent bias too, came from the copy")
                    .isFalse();
        }
    }

    /**
     * A weight made from the file's (a stacked projection) rides in the prepared copy: the second load maps it with
     * the rest instead of making it again in memory of its own (a kernel reading one weight from another kind of
     * segment was measured 30 % slower on every decoder step).
     */
    @Test
    void aDerivedWeightIsKeptAndMappedWithTheRest(@TempDir Path dir) throws Exception {
        Path file = source(dir, 4);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        float[] made;
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            HostTensor w = store.scope().weight(W);
            HostTensor stacked = store.derivedWeight("stacked", () -> twice(w));
            assertThat(store.derivedWeight("stacked", () -> {
                        throw new AssertionError("made twice");
                    }))
                    .isSameAs(stacked);
            made = stacked.toFloatArray();
            store.keepPrepared();
        }
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            store.scope().weight(W);
            HostTensor stacked = store.derivedWeight("stacked", () -> {
                throw new AssertionError("made again although the prepared copy holds it");
            });
            assertThat(stacked.dtype()).isEqualTo(DType.Q8_0);
            assertThat(stacked.shape()).isEqualTo(dev.audioengine.api.tensor.Shape.of(12, 64));
            assertThat(stacked.toFloatArray()).isEqualTo(made);
            assertThat(stacked.ownsMemory()).as("mapped from the copy").isFalse();
            assertThat(store.servedFromPrepared()).isTrue();
            assertThat(store.sourceOpened()).isFalse();
        }
    }

    /** The weight's rows twice over, in its own block type. */
    private static HostTensor twice(HostTensor w) {
        HostTensor t = HostTensor.allocate(
                w.dtype(),
                dev.audioengine.api.tensor.Shape.of(
                        2 * w.shape().dim(0), w.shape().dim(1)));
        java.lang.foreign.MemorySegment.copy(w.data(), 0, t.data(), 0, w.byteSize());
        java.lang.foreign.MemorySegment.copy(w.data(), 0, t.data(), w.byteSize(), w.byteSize());
        return t;
    }

    @Test
    void aSourceWhoseBytesChangedGetsANewCopy(@TempDir Path dir) throws Exception {
        Path file = source(dir, 1);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        keep(file, cache, DType.Q8_0);
        Read before = fresh(file);
        source(dir, 2); // same size, other values
        Files.setLastModifiedTime(
                file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5000));
        Read after = fresh(file);
        assertThat(after.f32()).isNotEqualTo(before.f32());
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            assertSame(read(store), after);
            assertThat(store.servedFromPrepared()).isFalse();
            store.keepPrepared();
        }
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            assertSame(read(store), after);
            assertThat(store.servedFromPrepared())
                    .as("the rebuilt copy is used")
                    .isTrue();
        }
    }

    @Test
    void aTouchedSourceWithTheSameBytesKeepsItsCopy(@TempDir Path dir) throws Exception {
        Path file = source(dir, 3);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        keep(file, cache, DType.Q8_0);
        Files.setLastModifiedTime(
                file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - 60_000));
        PreparedWeights.Header before = header(cache, file);
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            assertSame(read(store), fresh(file));
            assertThat(store.servedFromPrepared()).as("its sha256 is unchanged").isTrue();
        }
        PreparedWeights.Header after = header(cache, file);
        assertThat(after.sourceModified())
                .as("rewritten under the new stamp, so later loads need not hash the source again")
                .isNotEqualTo(before.sourceModified())
                .isEqualTo(Files.getLastModifiedTime(file).toMillis());
        assertThat(after.sourceSha256()).isEqualTo(before.sourceSha256());
    }

    @Test
    void theBuildIdentityIsTheVersionAndADigestOfTheConversionCodeNotATimestamp() {
        // the build fills build.properties: a timestamp there made every build's jar differ (not reproducible)
        assertThat(PreparedWeights.buildIdentity()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)? code [0-9a-f]{64}");
    }

    @Test
    void anotherBuildOrWeightTypeNeverReadsTheCopy(@TempDir Path dir) throws Exception {
        Path file = source(dir, 4);
        Path folder = dir.resolve("prepared");
        keep(file, new PreparedWeights(folder, "0.1.0 built yesterday"), DType.Q8_0);
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, new PreparedWeights(folder, "0.1.0 built today"))) {
            assertSame(read(store), fresh(file));
            assertThat(store.servedFromPrepared()).isFalse();
        }
        try (WeightStore store =
                WeightStore.open(file, DType.F32, new PreparedWeights(folder, "0.1.0 built yesterday"))) {
            assertThat(store.scope().weight(W).dtype()).isEqualTo(DType.F32);
            assertThat(store.servedFromPrepared()).isFalse();
        }
    }

    /**
     * Two builds sharing one cache each keep their own copy, so alternating them serves both from their copies (one
     * name for all builds made every switch rebuild the copy); a third build's copy removes the least recently used.
     */
    @Test
    void buildsSharingACacheKeepTheirOwnCopiesAndTheLeastRecentlyUsedGoes(@TempDir Path dir) throws Exception {
        Path file = source(dir, 4);
        Path folder = dir.resolve("prepared");
        PreparedWeights older = new PreparedWeights(folder, "0.1.0 code aaaa"),
                newer = new PreparedWeights(folder, "0.2.0 code bbbb"),
                third = new PreparedWeights(folder, "0.3.0 code cccc");
        keep(file, older, DType.Q8_0);
        keep(file, newer, DType.Q8_0);
        assertThat(older.fileFor(file, DType.Q8_0)).isNotEqualTo(newer.fileFor(file, DType.Q8_0));
        for (int round = 0; round < 2; round++)
            for (PreparedWeights build : List.of(older, newer))
                try (WeightStore store = WeightStore.open(file, DType.Q8_0, build)) {
                    assertSame(read(store), fresh(file));
                    assertThat(store.servedFromPrepared()).as("round %d", round).isTrue();
                }
        // newer used last, clearly after older (a load stamps its file's time, in milliseconds: loads within one
        // millisecond tie); a third build then keeps newer and itself
        Thread.sleep(20);
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, newer)) {
            assertThat(store.servedFromPrepared()).isTrue();
        }
        Thread.sleep(20);
        keep(file, third, DType.Q8_0);
        assertThat(older.fileFor(file, DType.Q8_0)).doesNotExist();
        assertThat(newer.fileFor(file, DType.Q8_0)).exists();
        assertThat(third.fileFor(file, DType.Q8_0)).exists();
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, newer)) {
            assertThat(store.servedFromPrepared()).isTrue();
        }
        // another weight type's copy is another file, never pruned with these
        keep(file, older, DType.F32);
        assertThat(older.fileFor(file, DType.F32)).exists();
        assertThat(newer.fileFor(file, DType.Q8_0)).exists();
    }

    @Test
    void aDamagedOrTruncatedCopyIsDetectedAndReplacedNeverUsed(@TempDir Path dir) throws Exception {
        Path file = source(dir, 5);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        Read expected = fresh(file);
        for (String damage : List.of("flip a data byte", "flip a header byte", "truncate", "empty")) {
            keep(file, cache, DType.Q8_0);
            Path copy = cache.fileFor(file, DType.Q8_0);
            long size = Files.size(copy);
            switch (damage) {
                case "flip a data byte" -> flip(copy, size - 7);
                case "flip a header byte" -> flip(copy, 20);
                case "truncate" -> {
                    try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                        ch.truncate(size - 100);
                    }
                }
                default -> Files.write(copy, new byte[0]);
            }
            try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
                assertSame(read(store), expected);
                assertThat(store.servedFromPrepared()).as(damage).isFalse();
                store.keepPrepared();
            }
            try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
                assertSame(read(store), expected);
                assertThat(store.servedFromPrepared())
                        .as("replaced after: " + damage)
                        .isTrue();
            }
        }
    }

    @Test
    void aCacheThatCannotBeWrittenLeavesTheLoadAsItWas(@TempDir Path dir) throws Exception {
        Path file = source(dir, 6);
        Path notAFolder = dir.resolve("prepared");
        Files.writeString(notAFolder, "a file where the folder would be");
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, PreparedWeights.in(notAFolder))) {
            assertSame(read(store), fresh(file));
            store.keepPrepared();
        }
        assertThat(Files.readString(notAFolder)).isEqualTo("a file where the folder would be");
    }

    @Test
    void lookupsAfterTheCopyWasKeptAreAddedAtClose(@TempDir Path dir) throws Exception {
        Path file = source(dir, 7);
        PreparedWeights cache = PreparedWeights.in(dir.resolve("prepared"));
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            store.scope().weight(W);
            store.keepPrepared();
            store.scope().tensor(W); // a graph built later reads one more
        }
        try (WeightStore store = WeightStore.open(file, DType.Q8_0, cache)) {
            store.scope().weight(W);
            store.scope().tensor(W);
            assertThat(store.sourceOpened()).isFalse();
        }
        assertThat(cache.clean()).isPositive();
        assertThat(Files.list(cache.directory()).toList()).isEmpty();
    }

    private static void keep(Path file, PreparedWeights cache, DType type) throws IOException {
        try (WeightStore store = WeightStore.open(file, type, cache)) {
            read(store);
            store.keepPrepared();
        }
    }

    private static PreparedWeights.Header header(PreparedWeights cache, Path file) throws IOException {
        Path copy = cache.fileFor(file, DType.Q8_0);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
                FileChannel ch = FileChannel.open(copy, StandardOpenOption.READ)) {
            return PreparedWeights.Header.read(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena), copy);
        }
    }

    private static void flip(Path file, long at) throws IOException {
        byte[] b = Files.readAllBytes(file);
        b[(int) at] ^= 0x40;
        Files.write(file, b);
    }
}
