package dev.audioengine.blocks.weights;

import dev.audioengine.api.CacheDirectory;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.zip.CRC32C;

/**
 * Prepared weights: a model file's tensors as a {@link WeightStore} serves them (dequantized, folded, permuted and
 * converted to the session's weight type) kept in one file under {@code <cache>/prepared/}, memory-mapped on later
 * loads. The ONNX parsing, dequantization, folding and block quantization of a load then happen once per machine,
 * not once per process, and the weights are the file's pages (shared, clean, droppable by the kernel) rather than a
 * private copy on the heap and another in native memory.
 * <p>
 * A prepared file is used only when everything that made it is unchanged:
 * <ul>
 *   <li>the source: its size and modification time as recorded, or else its sha256 as recorded (a file copied or
 *       touched keeps its prepared copy; one whose bytes changed gets a new one);</li>
 *   <li>the code: the format number below and the build that wrote it ({@code build.properties}: the project version
 *       and a sha256 over the main sources of engine-api, weights and blocks, so an engine whose conversion code
 *       changed never reads what the older code wrote, while two builds of one commit, being byte-identical, share
 *       a cache); each build has a file of its own (a tag of the build in the name), and the two most recently used
 *       builds' files of a source are kept, so two installed versions sharing a cache do not rebuild each other's;</li>
 *   <li>the session's weight type, which is part of the file's name;</li>
 *   <li>its own bytes: a CRC-32C over header and data, checked on every load. A file that fails any check is deleted
 *       and rebuilt from the source, never used.</li>
 * </ul>
 * Writing is best effort: a cache folder that cannot be written leaves the load as it was (from the source). Files
 * are written to a temporary name and renamed, so a reader never sees half a file. {@code audioengine models clean}
 * removes the folder; option {@code AUDIOENGINE_PREPARED=off} (or the system property {@code audioengine.prepared=off})
 * turns the cache off.
 */
public final class PreparedWeights {
    /** Bumped whenever the layout of the file or the meaning of a stored tensor changes. */
    static final int FORMAT = 1;

    private static final byte[] MAGIC = "AEPREP\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int ALIGN = 64;
    private static final System.Logger LOG = System.getLogger(PreparedWeights.class.getName());

    /** What a store looked up: a tensor served in F32 ({@code F32}), in the weight type ({@code WEIGHT}), or whether a name exists. */
    enum Kind {
        F32,
        WEIGHT,
        PRESENT,
        ABSENT
    }

    /** One stored lookup; {@code tensor} is null for {@code PRESENT} and {@code ABSENT}. */
    record Entry(Kind kind, String name, HostTensor tensor) {}

    private final Path dir;
    private final String build;

    PreparedWeights(Path dir, String build) {
        this.dir = dir;
        this.build = build;
    }

    /**
     * The user's cache ({@link CacheDirectory}{@code /prepared}) for this build of the engine, or null when the cache is
     * switched off or there is no cache folder (no HOME): then stores load from their sources as before.
     */
    public static PreparedWeights userCache() {
        String off =
                System.getProperty("audioengine.prepared", System.getenv().getOrDefault("AUDIOENGINE_PREPARED", "on"));
        if (off.equalsIgnoreCase("off") || off.equals("0") || off.equalsIgnoreCase("false")) return null;
        try {
            return new PreparedWeights(CacheDirectory.resolve().resolve("prepared"), buildIdentity());
        } catch (IllegalStateException noHome) {
            return null;
        }
    }

    /** A cache in {@code dir} (tests, and callers with a cache of their own). */
    public static PreparedWeights in(Path dir) {
        return new PreparedWeights(dir, buildIdentity());
    }

    public Path directory() {
        return dir;
    }

    /**
     * The prepared file of {@code source} for weight type {@code type}: its name, type, a hash of its real path and one
     * of the build. Each build has a file of its own, so two builds sharing a cache (two installed versions, or a
     * checkout rebuilt and an older image) do not rebuild each other's copy on every run: with one name per source
     * and type, alternating two builds rewrote the copy every time (7.5-8.2 s and 641 MB a run of the README job
     * instead of 2.5-2.9 s and 252 MB, docs/PERFORMANCE.md). {@link #write} keeps the {@link #BUILDS_KEPT} most
     * recently used builds' copies of a source.
     */
    Path fileFor(Path source, DType type) throws IOException {
        return dir.resolve(prefix(source, type) + buildTag() + ".prepared");
    }

    /** What every build's file of this source and type starts with: name, type and the hash of its real path. */
    private String prefix(Path source, DType type) throws IOException {
        Path real = source.toRealPath();
        String id = HexFormat.of()
                .formatHex(sha256().digest(real.toString().getBytes(StandardCharsets.UTF_8)))
                .substring(0, 16);
        return real.getFileName() + "." + type.name().toLowerCase(java.util.Locale.ROOT) + "." + id + ".";
    }

    private String buildTag() {
        return HexFormat.of()
                .formatHex(sha256().digest(build.getBytes(StandardCharsets.UTF_8)))
                .substring(0, 8);
    }

    /** Builds whose copies of one source and type are kept: this one and the one used before it. */
    static final int BUILDS_KEPT = 2;

    /**
     * Deletes the copies of {@code source} and {@code type} beyond the {@link #BUILDS_KEPT} most recently used (a load
     * touches its file), this build's included; best effort. Copies named before files had a build's tag count as
     * another build's.
     */
    private void prune(Path source, DType type) {
        try (var files = Files.list(dir)) {
            String prefix = prefix(source, type);
            List<Path> copies = new ArrayList<>(files.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith(prefix) && n.endsWith(".prepared");
                    })
                    .toList());
            copies.sort(java.util.Comparator.comparing((Path p) -> {
                        try {
                            return Files.getLastModifiedTime(p);
                        } catch (IOException e) {
                            return java.nio.file.attribute.FileTime.fromMillis(0);
                        }
                    })
                    .reversed());
            for (Path old : copies.subList(Math.min(BUILDS_KEPT, copies.size()), copies.size())) {
                LOG.log(
                        System.Logger.Level.INFO,
                        "prepared weights " + old + " are another build's, used least recently; removed");
                Files.deleteIfExists(old);
            }
        } catch (IOException | RuntimeException e) {
            // the next write prunes again
        }
    }

    /** A mapped prepared file and the lookups it answers; closing it unmaps them. */
    static final class Loaded implements AutoCloseable {
        private final Arena arena;
        final Map<Kind, Map<String, Entry>> entries;
        /** The source was touched (new mtime, same sha256): the copy holds, and is rewritten with the new stamp. */
        final boolean restamp;

        Loaded(Arena arena, Map<Kind, Map<String, Entry>> entries, boolean restamp) {
            this.arena = arena;
            this.entries = entries;
            this.restamp = restamp;
        }

        Entry get(Kind kind, String name) {
            return entries.getOrDefault(kind, Map.of()).get(name);
        }

        int size() {
            return entries.values().stream().mapToInt(Map::size).sum();
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    /**
     * The prepared copy of {@code source} for {@code type}, or null when there is none usable: missing, or stale or
     * corrupt (which is then deleted, with the reason logged).
     */
    Loaded load(Path source, DType type) {
        Path file;
        try {
            file = fileFor(source, type);
            if (!Files.isRegularFile(file)) return null;
        } catch (IOException e) {
            return null;
        }
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment all = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            Header h = Header.read(all, file);
            String stale = h.staleness(source, build, type);
            if (stale != null) {
                arena.close();
                discard(file, "stale (" + stale + ")");
                return null;
            }
            Map<Kind, Map<String, Entry>> entries = new LinkedHashMap<>();
            for (Header.Row r : h.rows) {
                HostTensor t = r.kind == Kind.F32 || r.kind == Kind.WEIGHT
                        ? HostTensor.wrap(r.dtype, r.shape, all.asSlice(r.offset, r.dtype.bytesFor(r.shape.elements())))
                        : null;
                entries.computeIfAbsent(r.kind, k -> new LinkedHashMap<>()).put(r.name, new Entry(r.kind, r.name, t));
            }
            try {
                Files.setLastModifiedTime(
                        file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
            } catch (IOException e) {
                // its time says when it was last used (see prune); a read-only cache only prunes less well
            }
            return new Loaded(arena, entries, !h.stampMatches(source));
        } catch (IOException | RuntimeException e) {
            arena.close();
            discard(file, "unreadable: " + e.getMessage());
            return null;
        }
    }

    /**
     * Writes the prepared copy of {@code source} for {@code type} holding {@code entries}; best effort (a failure is
     * logged and the file left absent).
     */
    void write(Path source, DType type, List<Entry> entries) {
        Path file = null, tmp = null;
        try {
            file = fileFor(source, type);
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, file.getFileName().toString(), ".partial");
            List<Header.Row> rows = new ArrayList<>();
            long offset = 0;
            for (Entry e : entries) {
                if (e.tensor == null) {
                    rows.add(new Header.Row(e.kind, e.name, DType.F32, Shape.of(0), 0));
                    continue;
                }
                offset = align(offset);
                rows.add(new Header.Row(e.kind, e.name, e.tensor.dtype(), e.tensor.shape(), offset));
                offset += e.tensor.byteSize();
            }
            Header h = new Header(
                    FORMAT,
                    build,
                    type,
                    source.toRealPath().toString(),
                    Files.size(source),
                    Files.getLastModifiedTime(source).toMillis(),
                    sha256(source),
                    rows);
            byte[] head = h.bytes();
            long dataStart = align(MAGIC.length + 4L + head.length + 8);
            CRC32C crc = new CRC32C();
            crc.update(head);
            try (FileChannel ch =
                    FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer start =
                        ByteBuffer.allocate(MAGIC.length + 4 + head.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                start.put(MAGIC).putInt(head.length).put(head).flip();
                writeFully(ch, start, 0);
                int i = 0;
                for (Entry e : entries) {
                    Header.Row r = rows.get(i++);
                    if (e.tensor == null) continue;
                    ByteBuffer data = e.tensor.data().asByteBuffer();
                    crc.update(data.duplicate());
                    writeFully(ch, data, dataStart + r.offset);
                }
                ByteBuffer sum = ByteBuffer.allocate(8)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .putLong(crc.getValue())
                        .flip();
                writeFully(ch, sum, MAGIC.length + 4L + head.length);
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            prune(source, type);
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "could not keep prepared weights of " + source + " in " + dir + " (" + e.getMessage()
                            + "); later loads read the source again");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the temporary name is never read
                }
            }
        }
    }

    /** Deletes every prepared file; returns how many bytes were freed. */
    public long clean() throws IOException {
        if (!Files.isDirectory(dir)) return 0;
        long freed = 0;
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                if (!Files.isRegularFile(p)) continue;
                freed += Files.size(p);
                Files.delete(p);
            }
        }
        return freed;
    }

    private static void discard(Path file, String why) {
        LOG.log(
                System.Logger.Level.INFO,
                "prepared weights " + file + " are " + why + "; rebuilding them from the source");
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete " + file + ": " + e.getMessage());
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) at += ch.write(b, at);
    }

    private static long align(long v) {
        return (v + ALIGN - 1) / ALIGN * ALIGN;
    }

    static String sha256(Path p) throws IOException {
        MessageDigest md = sha256();
        try (InputStream in = Files.newInputStream(p)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /** The project version and the digest of the weight-conversion code the build wrote into build.properties. */
    static String buildIdentity() {
        try (InputStream in = PreparedWeights.class.getResourceAsStream("build.properties")) {
            if (in == null) return "unknown build";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "?") + " code " + p.getProperty("code", "?");
        } catch (IOException e) {
            return "unknown build";
        }
    }

    /** The header: what made the file, and where each lookup's tensor lies in the data. */
    record Header(
            int format,
            String build,
            DType type,
            String source,
            long sourceSize,
            long sourceModified,
            String sourceSha256,
            List<Row> rows) {
        record Row(Kind kind, String name, DType dtype, Shape shape, long offset) {}

        byte[] bytes() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeInt(format);
                out.writeUTF(build);
                out.writeUTF(type.name());
                out.writeUTF(source);
                out.writeLong(sourceSize);
                out.writeLong(sourceModified);
                out.writeUTF(sourceSha256);
                out.writeInt(rows.size());
                for (Row r : rows) {
                    out.writeByte(r.kind.ordinal());
                    out.writeUTF(r.name);
                    out.writeUTF(r.dtype.name());
                    out.writeByte(r.shape.rank());
                    for (int d = 0; d < r.shape.rank(); d++) out.writeLong(r.shape.dim(d));
                    out.writeLong(r.offset);
                }
            }
            return bytes.toByteArray();
        }

        /** Parses and checks the whole file: magic, header, every tensor inside the data, the CRC over both. */
        static Header read(MemorySegment all, Path file) throws IOException {
            long size = all.byteSize();
            if (size < MAGIC.length + 12
                    || MemorySegment.mismatch(all, 0, MAGIC.length, MemorySegment.ofArray(MAGIC), 0, MAGIC.length)
                            != -1) {
                throw new IOException("not a prepared-weights file (bad magic)");
            }
            int headLength = all.get(
                    java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                    MAGIC.length);
            if (headLength < 0 || MAGIC.length + 4L + headLength + 8 > size)
                throw new IOException("header length " + headLength + " out of the file");
            byte[] head = all.asSlice(MAGIC.length + 4, headLength).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            long stored = all.get(
                    java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                    MAGIC.length + 4L + headLength);
            long dataStart = align(MAGIC.length + 4L + headLength + 8);
            Header h;
            try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(head))) {
                int format = in.readInt();
                String build = in.readUTF();
                DType type = DType.valueOf(in.readUTF());
                String source = in.readUTF();
                long sourceSize = in.readLong(), modified = in.readLong();
                String sha = in.readUTF();
                int n = in.readInt();
                if (n < 0 || n > 1_000_000) throw new IOException(n + " entries");
                List<Row> rows = new ArrayList<>(n);
                Kind[] kinds = Kind.values();
                for (int i = 0; i < n; i++) {
                    int k = in.readUnsignedByte();
                    if (k >= kinds.length) throw new IOException("entry kind " + k);
                    String name = in.readUTF();
                    DType dtype = DType.valueOf(in.readUTF());
                    int rank = in.readUnsignedByte();
                    long[] dims = new long[rank];
                    for (int d = 0; d < rank; d++) dims[d] = in.readLong();
                    Shape shape = Shape.of(dims);
                    long offset = in.readLong();
                    if (kinds[k] == Kind.F32 || kinds[k] == Kind.WEIGHT) {
                        long bytes = dtype.bytesFor(shape.elements());
                        if (offset < 0 || offset % ALIGN != 0 || dataStart + offset + bytes > size) {
                            throw new IOException("tensor '" + name + "' (" + bytes + " bytes at " + offset
                                    + ") lies outside the file");
                        }
                    }
                    rows.add(new Row(kinds[k], name, dtype, shape, offset));
                }
                h = new Header(format, build, type, source, sourceSize, modified, sha, rows);
            } catch (IllegalArgumentException e) {
                throw new IOException("bad header: " + e.getMessage(), e);
            }
            CRC32C crc = new CRC32C();
            crc.update(head);
            long end = dataStart;
            for (Row r : h.rows) {
                if (r.kind != Kind.F32 && r.kind != Kind.WEIGHT) continue;
                long bytes = r.dtype.bytesFor(r.shape.elements());
                crc.update(all.asSlice(dataStart + r.offset, bytes).asByteBuffer());
                end = Math.max(end, dataStart + r.offset + bytes);
            }
            if (crc.getValue() != stored)
                throw new IOException("its checksum does not match its contents (a damaged or truncated file)");
            List<Row> placed = new ArrayList<>(h.rows.size());
            for (Row r : h.rows) placed.add(new Row(r.kind, r.name, r.dtype, r.shape, dataStart + r.offset));
            return new Header(
                    h.format, h.build, h.type, h.source, h.sourceSize, h.sourceModified, h.sourceSha256, placed);
        }

        /** Why this file may not stand for {@code source} under {@code build} and {@code type}, or null when it may. */
        String staleness(Path source, String currentBuild, DType currentType) throws IOException {
            if (format != FORMAT) return "format " + format + ", this engine writes " + FORMAT;
            if (!build.equals(currentBuild)) return "written by " + build + ", this is " + currentBuild;
            if (type != currentType) return "weight type " + type + ", the session asks for " + currentType;
            if (!source.toRealPath().toString().equals(this.source)) return "made from " + this.source;
            if (stampMatches(source)) return null;
            return sha256(source).equals(sourceSha256) ? null : "the source's bytes changed";
        }

        /** Whether the source still has the size and modification time recorded (else its sha256 decides). */
        boolean stampMatches(Path source) throws IOException {
            return Files.size(source) == sourceSize
                    && Files.getLastModifiedTime(source).toMillis() == sourceModified;
        }
    }
}
