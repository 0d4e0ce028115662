package dev.audioengine.models;

/**
 * A model file the store knows how to fetch: where it lives inside an npm package and the
 * sha256 it must have.
 *
 * @param name      the cache file name (silero_vad_v5.onnx)
 * @param npmSpec   the package to {@code npm pack} (@ricky0123/vad-web@0.0.31)
 * @param entry     the path inside the package tarball (package/dist/silero_vad_v5.onnx)
 * @param sha256    lower-case hex
 */
public record ModelFile(String name, String npmSpec, String entry, String sha256) {
    public static final ModelFile SILERO_VAD_V5 = new ModelFile("silero_vad_v5.onnx", "@ricky0123/vad-web@0.0.31",
            "package/dist/silero_vad_v5.onnx", "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f");
    public static final ModelFile SILERO_VAD_V6 = new ModelFile("silero_vad_v6.onnx", "@ricky0123/vad-web@0.0.31",
            "package/dist/silero_vad_v6.onnx", "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3");
}
