package dev.audioengine.api;

import java.util.Locale;

/** The backend families a user can ask for. HIP is also spelled "rocm" on the command line. */
public enum BackendType {
    CPU("cpu"),
    CUDA("cuda"),
    HIP("hip"),
    VULKAN("vulkan"),
    METAL("metal"),
    BEST_AVAILABLE("best");

    /** Every spelling {@link #parse} accepts, for error messages and help. */
    public static final String VALID_NAMES = "cpu, cuda, hip, rocm, vulkan, metal, best";

    private final String cliName;

    BackendType(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line and in JSON ({@code rocm} parses to HIP but prints as hip). */
    public String cliName() {
        return cliName;
    }

    public static BackendType parse(String name) {
        if (name == null) throw new IllegalArgumentException("no backend name given; valid: " + VALID_NAMES);
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("rocm")) return HIP;
        for (BackendType t : values()) if (t.cliName.equals(n)) return t;
        throw new IllegalArgumentException("unknown backend '" + name + "'; valid: " + VALID_NAMES);
    }
}
