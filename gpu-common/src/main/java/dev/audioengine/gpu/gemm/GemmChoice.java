package dev.audioengine.gpu.gemm;

import dev.audioengine.api.spi.InvalidOptionValueException;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Which GEMM path a backend runs: the vendor library, or the engine's own kernels (linear.cu, which
 * take every weight dtype) when the library is switched off or cannot be loaded. {@link #describe()}
 * is what the backend reports after "GEMM: ", e.g. "hipBLASLt /opt/rocm/lib/libhipblaslt.so.1" or
 * "engine GEMM kernels (hipBLASLt not found (tried ...))".
 */
public record GemmChoice(GpuBlas blas, String whyNoLibrary) {
    /** What the backend reports after "GEMM: ". */
    public String describe() {
        return blas != null ? blas.describe() : "engine GEMM kernels (" + whyNoLibrary + ")";
    }

    /**
     * {@code option} is the value of the switch named {@code optionName} (on or off); {@code load}
     * loads the library or throws IllegalStateException saying what it tried.
     */
    public static GemmChoice select(String optionName, String option, String library, Supplier<GpuBlas> load) {
        String v = option.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "off", "false", "0" -> {
                return new GemmChoice(null, library + " switched off: " + optionName + "=off");
            }
            case "on", "true", "1" -> {
                try {
                    return new GemmChoice(load.get(), null);
                } catch (IllegalStateException e) {
                    return new GemmChoice(null, e.getMessage());
                }
            }
            default -> throw new InvalidOptionValueException(optionName + " must be on or off, got '" + v + "'");
        }
    }

    /**
     * The first of {@code tried} that has a library; else the engine's kernels, with why each
     * library was not used ("engine GEMM kernels (hipBLASLt not found (...); rocBLAS switched off: ...)").
     * Suppliers are asked in order, so a later library is not even loaded once an earlier one is.
     */
    @SafeVarargs
    public static GemmChoice firstAvailable(Supplier<GemmChoice>... tried) {
        StringBuilder why = new StringBuilder();
        for (Supplier<GemmChoice> s : tried) {
            GemmChoice c = s.get();
            if (c.blas() != null) return c;
            why.append(why.isEmpty() ? "" : "; ").append(c.whyNoLibrary());
        }
        return new GemmChoice(null, why.toString());
    }

    /** A library the backend cannot run without (CUDA's cuBLASLt: the probe already required it). */
    public static GemmChoice required(GpuBlas blas) {
        return new GemmChoice(blas, null);
    }
}
